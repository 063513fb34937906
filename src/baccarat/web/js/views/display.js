// @ts-check
// The road display board (#/display/ID): a full-screen board for a screen beside a table, from public
// data only (the table's websocket: its snapshot, then its public messages; GET /api/rounds/{id} for
// the last hand when the page comes in between rounds). It follows the table through a server
// restart: the socket reconnects with back-off and the new snapshot redraws the board.

import { api } from "../api.js";
import { onLangChange, setLang, t } from "../i18n.js";
import { TableSocket } from "../socket.js";
import { apply, initialState } from "../state.js";
import "./display_texts.js";
import { buildBoard } from "./display/layout.js";
import { isShownRound, liveStep, lookBack, newerResult, orientation, parseBoardArg } from "./display/model.js";
import { renderAlerts, renderConnection, renderLimits, renderNotice, renderPhase, renderResult, renderRoads, renderStats, renderTitle } from "./display/render.js";

const TICK_MS = 250;
const BODY_CLASS = "board-mode";

/**
 * Show the display board of table `arg` ("web-macau", or "web-macau?lang=en") in `view`; returns a
 * function that leaves it (closes the socket, stops the timers, gives the page its header back).
 * @param {HTMLElement} view @param {string} arg
 */
export function mountDisplay(view, arg) {
  const { tableId, lang: asked } = parseBoardArg(arg, location.search);
  if (asked) setLang(asked);
  let state = initialState();
  /** The server's shoe statistics for the roads on screen (snapshot, then each round_settled). */
  let stats = /** @type {any} */ (null);
  /** @type {import("./display/model.js").LastResult|null} */
  let last = null;
  /** The coup being dealt (its cards so far), while one is. @type {import("./display/model.js").Live|null} */
  let live = null;
  let looking = false;
  let left = false;
  document.body.classList.add(BODY_CLASS);
  const el = buildBoard(view, (code) => setLang(code));

  function drawRoads() {
    const roads = state.table && state.table.roads;
    renderRoads(el, roads);
    renderStats(el, roads, stats);
    renderAlerts(el, roads, stats);
  }

  function drawAll() {
    el.board.dataset.orientation = orientation(window.innerWidth, window.innerHeight);
    el.board.dataset.status = state.status;
    document.title = `${t("display")} · 百家樂 Baccarat`;
    renderTitle(el, state);
    renderNotice(el, state, tableId);
    renderLimits(el, state.table);
    drawRoads();
    drawResult();
    tick();
  }

  function drawResult() {
    const number = live && state.round && state.round.id === live.round_id ? state.round.number : null;
    renderResult(el, last, live, number);
  }

  /** The cards of the coup on the table when the board comes in while it is dealt (the public state). */
  function liveFromSnapshot() {
    const round = state.round;
    const cards = state.pub && state.pub.cards;
    if (!round || round.status !== "closed" || !cards) return null;
    const out = Object.fromEntries(Object.entries(cards).filter(([position]) => /^(player|banker)_[123]$/.test(position)));
    return Object.keys(out).length ? { round_id: round.id, cards: out } : null;
  }

  function tick() {
    const now = Date.now();
    renderPhase(el, state, now);
    renderConnection(el, state, now);
  }

  /** The table's last settled round, asked for when the board comes in between rounds. */
  async function findLast() {
    const results = (state.table && state.table.roads && state.table.roads.results) || "";
    if (looking || last || !results || !state.round) return;
    looking = true;
    try {
      for (const id of lookBack(state.round.id)) {
        const round = await api(`/api/rounds/${id}`);
        if (left || last) return;
        if (!isShownRound(round, tableId)) continue;
        last = newerResult(last, { round_id: round.id, number: round.number, result: round.result });
        drawResult();
        return;
      }
    } catch {
      // the server went away meanwhile: the next snapshot asks again
    } finally {
      looking = false;
    }
  }

  /** Take one message of the table (or the page's own) and draw what it changed. @param {any} message */
  function dispatch(message) {
    const before = state;
    const liveBefore = live;
    state = apply(state, message, Date.now());
    live = message.type === "snapshot" ? liveFromSnapshot() : liveStep(live, message);
    if (message.type === "snapshot") stats = (state.table && state.table.stats) || null;
    else if (message.type === "round_settled") stats = message.stats || null;
    else if (message.type === "shoe_started") stats = null;
    if (state.shown) last = newerResult(last, state.shown);
    if (live !== liveBefore && state === before) drawResult();
    if (state === before) return;
    if (message.type === "countdown") tick();
    else drawAll();
    if (message.type === "snapshot") findLast();
  }

  const socket = new TableSocket(tableId, {
    onMessage: dispatch,
    onState(connection, retryAt) {
      dispatch({ type: "local_connection", connection, retryAt });
    },
  });
  const timer = window.setInterval(tick, TICK_MS);
  let resizing = 0;
  const onResize = () => {
    window.clearTimeout(resizing);
    resizing = window.setTimeout(drawAll, 100);
  };
  window.addEventListener("resize", onResize);
  const offLang = onLangChange(drawAll);
  drawAll();

  return () => {
    left = true;
    socket.close();
    window.clearInterval(timer);
    window.clearTimeout(resizing);
    window.removeEventListener("resize", onResize);
    offLang();
    document.body.classList.remove(BODY_CLASS);
  };
}
