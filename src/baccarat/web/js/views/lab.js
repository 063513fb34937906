// The odds lab (賠率實驗室): exact par sheets for any shoe and paytable, and strategy simulations.

import { api } from "../api.js";
import { bankrollChart } from "../chart.js";
import { h, replace } from "../dom.js";
import { pct, signed } from "../format.js";
import { chinese, t, lang, onLangChange } from "../i18n.js";
import { explain } from "../refusals.js";
import { VARIANTS, variantName } from "../variants.js";
import { LiveAdvisor } from "./lab/advisor.js";
import { drawOracle } from "./lab/oracle.js";
import "./lab_texts.js";

const STAKINGS = ["flat", "martingale", "paroli", "fibonacci", "dalembert", "1326"];
const TARGETS = ["banker", "player", "streak", "chop"];

function select(id, options, value) {
  return h("select", { id, name: id }, ...options.map(([v, label]) => h("option", { value: v, selected: v === value }, label)));
}

function labelled(text, control) {
  return h("label", { class: "field" }, h("span", {}, text), control);
}

/** Show the odds lab in `view`. */
export function mountLab(view) {
  const keep = {};
  let sheetForm;
  let simForm;
  let oracleForm;
  const advisor = new LiveAdvisor();

  function readForms() {
    if (!sheetForm) return;
    for (const form of [sheetForm, simForm, oracleForm]) for (const el of form.elements) if (el.name) keep[el.name] = el.value;
  }

  async function runOracle(event) {
    if (event) event.preventDefault();
    const out = view.querySelector("#oracle-out");
    const data = new FormData(oracleForm);
    const body = { variant: String(data.get("orc_variant")), decks: Number(data.get("orc_decks")), shoes: Number(data.get("orc_shoes")) };
    const seed = String(data.get("orc_seed") || "").trim();
    if (seed) body.seed = Number(seed);
    replace(out, h("p", { class: "muted", role: "status" }, t("orc_busy", { shoes: body.shoes })));
    try {
      const result = await api("/api/lab/oracle", { method: "POST", body });
      keep.oracle = result;
      drawOracle(out, result);
    } catch (error) {
      replace(out, h("p", { class: "error", role: "alert" }, `${t("error")}: ${explain(error)}`));
    }
  }

  function sheetTable(sheet) {
    const rows = Object.entries(sheet.bets).map(([, bet]) =>
      h(
        "tr",
        {},
        h("th", { scope: "row" }, lang() === "en" ? bet.name : chinese(bet.name_zh)),
        h("td", {}, bet.pays_text),
        h("td", {}, pct(bet.probability_win)),
        h("td", {}, bet.probability_push ? pct(bet.probability_push) : "–"),
        h("td", {}, pct(bet.probability_lose)),
        h("td", {}, signed(bet.expected_value)),
        h("td", { class: "edge" }, pct(bet.house_edge, 3)),
        h("td", {}, bet.std_dev.toFixed(3)),
      ),
    );
    const outcomes = Object.entries(sheet.outcomes).map(([name, o]) => `${t(name)} ${pct(o.probability)}`).join(" · ");
    return [
      h("p", { id: "sheet-outcomes" }, h("strong", {}, `${t("outcomes")}: `), outcomes, ` · ${t("cards_in_shoe", { n: sheet.cards })}`),
      h(
        "div",
        { class: "scroll-x" },
        h(
          "table",
          { class: "sheet", id: "sheet" },
          h("caption", {}, `${t("par_sheet")}: ${variantName(sheet.variant || sheet.paytable)} · ${sheet.decks} ${t("decks")}${sheet.removed ? ` − ${sheet.removed}` : ""}`),
          h("thead", {}, h("tr", {}, ...["bet", "pays_levels", "win", "push", "lose", "ev", "house_edge", "std_dev"].map((k) => h("th", { scope: "col" }, t(k))))),
          h("tbody", {}, ...rows),
        ),
      ),
    ];
  }

  async function computeSheet(event) {
    if (event) event.preventDefault();
    const out = view.querySelector("#sheet-out");
    const data = new FormData(sheetForm);
    const params = new URLSearchParams({ decks: String(data.get("decks")) });
    const pricing = String(data.get("pricing"));
    if (pricing.startsWith("paytable:")) params.set("paytable", pricing.slice(9));
    else params.set("variant", pricing);
    const remove = String(data.get("remove") || "").trim();
    if (remove) params.set("remove", remove);
    replace(out, h("p", { class: "muted", role: "status" }, t("busy")));
    try {
      const sheet = await api(`/api/lab/odds?${params}`);
      keep.sheet = sheet;
      replace(out, ...sheetTable(sheet));
    } catch (error) {
      replace(out, h("p", { class: "error", role: "alert" }, `${t("error")}: ${explain(error)}`));
    }
  }

  function simSummary(result) {
    const strat = result.strategy;
    return h(
      "dl",
      { class: "facts sim-facts", id: "sim-summary" },
      h("dt", {}, t("hands")), h("dd", {}, result.hands.toLocaleString()),
      h("dt", {}, t("wagered")), h("dd", {}, strat.wagered.toLocaleString()),
      h("dt", {}, t("net")), h("dd", {}, strat.net.toLocaleString()),
      h("dt", {}, t("edge_realised")), h("dd", {}, `${pct(strat.house_edge_realised, 3)} (${t("house_edge")} ${pct(strat.house_edge_exact, 3)})`),
      h("dt", {}, t("risk_of_ruin")), h("dd", {}, pct(strat.risk_of_ruin.value, 1)),
      h("dt", {}, t("final_bankroll")), h("dd", {}, strat.final_bankroll.mean === null ? "–" : strat.final_bankroll.mean.toFixed(2)),
      h("dt", {}, t("seed")), h("dd", { class: "mono" }, String(result.seed)),
    );
  }

  async function simulate(event) {
    if (event) event.preventDefault();
    const out = view.querySelector("#sim-out");
    const data = new FormData(simForm);
    const body = {
      strategy: `${data.get("staking")}:${data.get("target")}`,
      variant: String(data.get("sim_variant")),
      decks: Number(data.get("sim_decks")),
      shoes: Number(data.get("shoes")),
      session_shoes: Number(data.get("session_shoes")),
      bankroll: Math.round(Number(data.get("bankroll")) * 100),
      unit: Math.round(Number(data.get("unit")) * 100),
    };
    const seed = String(data.get("seed") || "").trim();
    if (seed) body.seed = Number(seed);
    replace(out, h("p", { class: "muted", role: "status" }, t("busy")));
    try {
      const result = await api("/api/lab/simulate", { method: "POST", body });
      keep.sim = result;
      drawSim(out, result);
    } catch (error) {
      replace(out, h("p", { class: "error", role: "alert" }, `${t("error")}: ${explain(error)}`));
    }
  }

  function drawSim(out, result) {
    replace(out, h("h3", {}, t("chart_title", { n: result.chart.paths.length, h: result.chart.hands_per_point })), bankrollChart(result.chart), simSummary(result));
  }

  function draw() {
    readForms();
    const pricing = [
      ...VARIANTS.map((v) => [v, `${t("variant")}: ${variantName(v)}`]),
      ...VARIANTS.map((v) => [`paytable:${v}`, `${t("paytable")}: ${variantName(v)}`]),
    ];
    const decks = Array.from({ length: 12 }, (_, i) => [String(i + 1), String(i + 1)]);
    sheetForm = h(
      "form",
      { class: "lab-form", id: "sheet-form", onsubmit: computeSheet },
      labelled(t("decks"), select("decks", decks, keep.decks || "8")),
      labelled(`${t("variant")} / ${t("paytable")}`, select("pricing", pricing, keep.pricing || "macau")),
      labelled(t("remove_cards"), h("input", { id: "remove", name: "remove", value: keep.remove || "", placeholder: "5S K", "aria-describedby": "remove-hint", maxlength: 400 })),
      h("small", { id: "remove-hint", class: "muted" }, t("remove_hint")),
      h("button", { type: "submit", class: "primary" }, t("compute")),
    );
    simForm = h(
      "form",
      { class: "lab-form", id: "sim-form", onsubmit: simulate },
      labelled(t("staking"), select("staking", STAKINGS.map((v) => [v, t(`staking_${v}`)]), keep.staking || "flat")),
      labelled(t("target"), select("target", TARGETS.map((v) => [v, t(`target_${v}`)]), keep.target || "banker")),
      labelled(t("variant"), select("sim_variant", VARIANTS.map((v) => [v, variantName(v)]), keep.sim_variant || "macau")),
      labelled(t("decks"), select("sim_decks", decks, keep.sim_decks || "8")),
      labelled(t("shoes"), h("input", { name: "shoes", type: "number", min: 1, max: 1000, value: keep.shoes || "100", required: true })),
      labelled(t("session_shoes"), h("input", { name: "session_shoes", type: "number", min: 1, max: 100, value: keep.session_shoes || "5", required: true })),
      labelled(t("bankroll"), h("input", { name: "bankroll", type: "number", min: 1, step: "0.01", value: keep.bankroll || "10000", required: true })),
      labelled(t("unit"), h("input", { name: "unit", type: "number", min: 1, step: "0.01", value: keep.unit || "100", required: true })),
      labelled(t("seed"), h("input", { name: "seed", type: "number", min: 0, value: keep.seed || "" })),
      h("button", { type: "submit", class: "primary" }, t("run")),
    );
    oracleForm = h(
      "form",
      { class: "lab-form", id: "oracle-form", onsubmit: runOracle },
      labelled(t("variant"), select("orc_variant", VARIANTS.map((v) => [v, variantName(v)]), keep.orc_variant || "ez")),
      labelled(t("decks"), select("orc_decks", decks, keep.orc_decks || "8")),
      labelled(t("shoes"), h("input", { name: "orc_shoes", type: "number", min: 1, max: 100, value: keep.orc_shoes || "20", required: true })),
      labelled(t("seed"), h("input", { name: "orc_seed", type: "number", min: 0, value: keep.orc_seed || "" })),
      h("button", { type: "submit", class: "primary" }, t("run")),
    );
    const advisorBox = h("div", { id: "advisor-out", "aria-live": "polite" });
    replace(
      view,
      h(
        "section",
        { class: "lab" },
        h("h1", {}, t("lab_title")),
        h("section", { "aria-labelledby": "sheet-title" }, h("h2", { id: "sheet-title" }, t("par_sheet")), sheetForm, h("div", { id: "sheet-out", "aria-live": "polite" })),
        h("section", { "aria-labelledby": "sim-title" }, h("h2", { id: "sim-title" }, t("simulation")), simForm, h("div", { id: "sim-out", "aria-live": "polite" })),
        h("section", { "aria-labelledby": "advisor-title", id: "advisor" }, h("h2", { id: "advisor-title" }, t("adv_title")), h("p", { class: "muted" }, t("adv_intro")), advisorBox),
        h("section", { "aria-labelledby": "oracle-title", id: "oracle" }, h("h2", { id: "oracle-title" }, t("orc_title")), h("p", { class: "muted" }, t("orc_intro")), oracleForm, h("div", { id: "oracle-out", "aria-live": "polite" })),
      ),
    );
    if (keep.sheet) replace(view.querySelector("#sheet-out"), ...sheetTable(keep.sheet));
    if (keep.sim) drawSim(view.querySelector("#sim-out"), keep.sim);
    if (keep.oracle) drawOracle(view.querySelector("#oracle-out"), keep.oracle);
    advisor.mount(advisorBox);
  }

  draw();
  const unsubscribe = onLangChange(draw);
  return () => {
    unsubscribe();
    advisor.stop();
  };
}
