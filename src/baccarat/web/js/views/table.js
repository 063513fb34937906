// @ts-check
// A table: #/table/ID. The page (table/page.js) keeps the table's state (state.js: the reducer over
// the server's messages) and draws every panel from it (views/table/*.js); the player sits, stands,
// leaves, cashes out, places / undoes / clears / rebets / doubles / confirms bets, switches variant
// and squeezes (table/actions.js); refusals are shown in the page's language by their code.

import "./limits_texts.js";
import { TablePage } from "./table/page.js";

/**
 * Show table `tableId` in `view`; returns a function that leaves it.
 * @param {HTMLElement} view @param {string} tableId
 */
export function mountTable(view, tableId) {
  const page = new TablePage(view, tableId);
  return () => page.leave();
}
