// The fairness page (公平驗證): a round's commitment, revealed seed, the shoe dealt again, and the verdict,
// checked against the commitment published before the shoe (#/fairness/ROUND/COMMITMENT; default: the one shown).

import { api, ApiError } from "../api.js";
import { cardElement } from "../cards.js";
import { h, replace } from "../dom.js";
import { t, onLangChange } from "../i18n.js";
import { explain } from "../refusals.js";

async function sha256Hex(text) {
  if (!crypto.subtle) return null;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

function field(label, value, id) {
  return [h("dt", {}, label), h("dd", { id, class: "mono" }, value ?? "–")];
}

/** Show the fairness page for `roundId` (or just the form) in `view`. */
export function mountFairness(view, roundId) {
  const given = decodeURIComponent(location.hash.split("/")[3] || "");
  const input = h("input", { id: "fair-round", name: "round", type: "number", min: 1, inputmode: "numeric", required: true, value: roundId || "" });
  const published = h("input", { id: "fair-published", name: "commitment", type: "text", pattern: "[0-9a-fA-F]{64}", size: 66, class: "mono", value: given, placeholder: t("published_commitment") });
  const out = h("div", { id: "fair-out", "aria-live": "polite" });
  const form = h(
    "form",
    {
      class: "inline-form",
      onsubmit: (event) => {
        event.preventDefault();
        const commitment = published.value.trim();
        location.hash = `#/fairness/${encodeURIComponent(input.value)}${commitment ? `/${encodeURIComponent(commitment)}` : ""}`;
      },
    },
    h("label", { for: "fair-round" }, t("round_id")),
    input,
    h("label", { for: "fair-published" }, t("published_commitment")),
    published,
    h("button", { type: "submit", class: "primary" }, t("verify")),
  );
  replace(view, h("section", { class: "fairness" }, h("h1", {}, t("fairness_title")), h("p", { class: "muted" }, t("fairness_intro")), form, out));

  async function run() {
    if (!roundId) return;
    replace(out, h("p", { class: "muted" }, t("loading")));
    try {
      const round = await api(`/api/rounds/${encodeURIComponent(roundId)}`);
      const proof = round.proof || {};
      const facts = h(
        "dl",
        { class: "proof" },
        ...field(t("round_n", { n: round.number }), `${round.table} · #${round.id}`, "fair-round-name"),
        ...field(t("shoe_n", { n: proof.shoe ?? "–" }), `${t("coup_in_shoe")} ${proof.coup_in_shoe ?? "–"}`, "fair-coup"),
        ...field(t("commitment"), proof.commitment, "fair-commitment"),
        ...field(t("client_seed"), proof.client_seed, "fair-client-seed"),
        ...field(t("server_seed"), proof.server_seed || t("seed_hidden"), "fair-server-seed"),
      );
      const parts = [facts];
      if (!proof.server_seed || !proof.cards) {
        parts.push(h("p", { class: "verdict pending", id: "verdict", "data-ok": "pending" }, proof.detail || t("seed_hidden")));
        replace(out, ...parts);
        return;
      }
      // the chain is checked from the commitment published before the shoe: the one given, else the one shown
      const against = given || proof.commitment;
      const verdict = await api(`/api/rounds/${encodeURIComponent(roundId)}/verify?commitment=${encodeURIComponent(against)}`);
      const digest = await sha256Hex(proof.server_seed);
      // the server deals the round again from the seed (verify's `recomputed`: null when the seed does not
      // match the commitment); the lab deals the rest of the shoe for the table around it
      const cards = Array.isArray(verdict.recomputed) ? verdict.recomputed.map(String) : null;
      const shaOk = digest === null ? cards !== null : digest === proof.commitment;
      let shoe = [];
      try {
        shoe = (await api("/api/lab/recompute", { method: "POST", body: proof })).coups || [];
      } catch {
        shoe = [];
      }
      const result = round.result;
      const sameAsRound = cards !== null && result && cards.join(" ") === (result.cards || []).join(" ");
      const thisRow = {
        number: proof.coup_in_shoe,
        cards: cards || [],
        summary: sameAsRound ? `${t(`win_${result.winner}`)} ${result.player.total}–${result.banker.total}` : t("mismatch"),
      };
      const rows = shoe.map((coup) => ({ number: coup.number, cards: coup.cards, summary: `${t(`win_${coup.winner}`)} ${coup.player_total}–${coup.banker_total}` }));
      const at = rows.findIndex((row) => row.number === thisRow.number);
      if (at >= 0) rows[at] = thisRow;
      else rows.push(thisRow);
      parts.push(
        h("p", { class: `check ${shaOk ? "ok" : "bad"}`, id: "sha-check" }, `${t("sha_check")}: ${shaOk ? t("match") : t("mismatch")}`, digest ? h("code", { class: "mono small" }, ` ${digest}`) : null),
        h("p", { class: "muted", id: "fair-against", "data-given": given ? "true" : "false" }, `${t(given ? "published_commitment" : "commitment_from_server")}: `, h("code", { class: "mono small" }, against)),
        h("p", { class: `verdict ${verdict.ok ? "ok" : "bad"}`, id: "verdict", "data-ok": verdict.ok ? "true" : "false" }, verdict.ok ? t("verified") : `${t("not_verified")}: ${verdict.reason}`),
        h("h2", {}, t("recomputed")),
        h(
          "table",
          { class: "shoe-table", id: "recomputed" },
          h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, t("cards")), h("th", { scope: "col" }, t("result")))),
          h(
            "tbody",
            {},
            ...rows.map((row) => {
              const mine = row.number === proof.coup_in_shoe;
              return h(
                "tr",
                { class: mine ? "this-round" : "", "data-coup": row.number, "aria-current": mine ? "true" : null, "data-source": mine ? "verify" : "lab" },
                h("th", { scope: "row" }, String(row.number), mine ? ` (${t("this_round")})` : ""),
                h("td", { class: "hand-cards tiny" }, ...row.cards.map((c) => cardElement(c, { up: true }))),
                h("td", {}, row.summary),
              );
            }),
          ),
        ),
      );
      replace(out, ...parts);
      const row = out.querySelector("tr.this-round");
      if (row && row.scrollIntoView) row.scrollIntoView({ block: "nearest" });
    } catch (error) {
      const text = error instanceof ApiError && error.status === 404 ? t("not_found") : explain(error);
      replace(out, h("p", { class: "error", role: "alert" }, `${t("error")}: ${text}`));
    }
  }

  run();
  const off = onLangChange(() => {
    off();
    mountFairness(view, roundId);
  });
  return () => off();
}
