// A table: seats (sit, stand, leave, cash out), bet spots with payouts, chips, place / undo / clear /
// rebet / confirm, the countdown, the cards as the server deals and turns them (the squeeze when the
// server names this player), the result and payouts, the commission box, the table's refusals, the
// roads and the ask road, shoe statistics, recent rounds and recall.

import { api } from "../api.js";
import { dealCoup, cardElement, hiddenCard, peelable, turnCard, unpeel } from "../cards.js";
import { h, replace, toast } from "../dom.js";
import { money, chipLabel } from "../format.js";
import { t, betName, levelName, onLangChange } from "../i18n.js";
import { explain, ruleOf } from "../refusals.js";
import { askRoad, beadPlate, bigRoad, derivedRoad, shoeStats } from "../roads.js";
import { askLogin, currentUser, onUserChange, refreshUser, setUser } from "../session.js";
import { TableSocket } from "../socket.js";
import { variantName } from "../variants.js";

const CHIPS = [100, 500, 1000, 5000, 10000, 50000, 100000, 500000];
const STATE_MS = 150; // the table's state is asked for at most this often (a burst of events, one ask)
const DERIVED = ["big_eye_boy", "small_road", "cockroach_pig"];

function newClientId() {
  const bytes = new Uint8Array(9);
  crypto.getRandomValues(bytes);
  return `web-${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** Show table `tableId` in `view`; returns a function that leaves it. */
export function mountTable(view, tableId) {
  const st = {
    table: null, // the snapshot's state: settings, bet menu, round, roads
    round: null, // {id, number, status}
    deadline: 0, // performance.now() when betting closes
    chip: 1000,
    pending: [], // chips placed but not confirmed, in order: {bet, stake}
    confirmed: {}, // bet → stake confirmed in this round (the sum of myBets)
    confirmedRound: null,
    myBets: new Map(), // this player's accepted bets of confirmedRound, by bet id (bet_ack, my_bet: every tab)
    payouts: new Map(), // round id → this player's settled bets (my_settlement)
    lastBets: [], // the confirmed bets of the last round I played (for rebet)
    recent: [], // settled rounds seen: {round_id, number, result}
    lastResult: null,
    tables: [],
    connection: "connecting",
    dealing: false,
    pub: null, // the table's public state (seats, bettors with commission owed, squeezers, cards)
    live: { round: null, els: {}, squeezers: {} }, // cards of the round as the server deals and turns them
    revealAt: 0, // performance.now() when the dealer turns the face-down cards (0: no squeeze running)
    notice: null, // {kind: "error", detail} or {kind: "info", key, params}
  };
  const el = {};

  // --- layout ------------------------------------------------------------------------------------

  function build() {
    el.title = h("h1", { id: "table-title" });
    el.conn = h("span", { class: "conn", id: "conn", "aria-live": "polite" });
    el.switcher = h("select", { id: "table-switch", onchange: switchTable });
    el.switchLabel = h("label", { class: "switch" }, h("span", {}, t("other_tables")), " ", el.switcher);
    el.variant = h("select", { id: "variant-switch", onchange: switchVariant });
    el.variantLabel = h("label", { class: "switch" }, h("span", {}, t("my_variant")), " ", el.variant);
    el.buyIn = buildBuyIn();
    el.shoe = h("span", { class: "muted", id: "shoe-info" });
    el.phase = h("div", { class: "phase", id: "phase", role: "status", "aria-live": "polite" });
    el.timer = h("div", { class: "timer", role: "timer", id: "timer", "aria-live": "off" });
    el.timerBar = h("div", { class: "timer-bar" }, h("span", {}));
    el.playerHand = h("div", { class: "hand-cards", id: "player-cards" });
    el.bankerHand = h("div", { class: "hand-cards", id: "banker-cards" });
    el.playerTotal = h("span", { class: "total", id: "player-total" });
    el.bankerTotal = h("span", { class: "total", id: "banker-total" });
    el.result = h("div", { class: "result", id: "result", role: "status", "aria-live": "polite" });
    el.spots = h("div", { class: "spots", id: "spots", role: "group" });
    el.chips = h("div", { class: "chips", id: "chips", role: "radiogroup" });
    el.actions = h("div", { class: "actions", id: "actions" });
    el.wallet = h("div", { class: "wallet", id: "wallet", "aria-live": "polite" });
    el.roads = h("div", { class: "roads", id: "roads" });
    el.stats = h("div", { class: "stats", id: "shoe-stats" });
    el.recent = h("ol", { class: "recent", id: "recent-rounds", reversed: true });
    el.recall = h("div", { class: "recall", id: "recall", "aria-live": "polite" });
    el.seats = h("div", { class: "seats", id: "seats", role: "group" });
    el.notice = h("p", { class: "notice", id: "table-notice", role: "alert" });
    el.squeezeBar = h("div", { class: "squeeze-bar", id: "squeeze-bar", "aria-live": "polite" });

    replace(
      view,
      h(
        "section",
        { class: "table-view", "aria-labelledby": "table-title" },
        h("div", { class: "table-head" }, el.title, el.shoe, el.conn, el.variantLabel, el.switchLabel),
        h(
          "div",
          { class: "felt" },
          h("div", { class: "phase-row" }, el.phase, el.timer, el.timerBar),
          el.seats,
          h(
            "div",
            { class: "hands" },
            h("section", { class: "hand player", "aria-labelledby": "player-label" },
              h("h2", { id: "player-label", class: "side-label" }), el.playerTotal, el.playerHand),
            h("section", { class: "hand banker", "aria-labelledby": "banker-label" },
              h("h2", { id: "banker-label", class: "side-label" }), el.bankerTotal, el.bankerHand),
          ),
          el.squeezeBar,
          el.result,
          el.spots,
          h("div", { class: "chip-row" }, el.chips),
          el.actions,
          el.notice,
          el.wallet,
          el.buyIn,
        ),
        h(
          "aside",
          { class: "board", "aria-labelledby": "roads-title" },
          h("h2", { id: "roads-title" }),
          el.roads,
          h("h3", { id: "stats-title" }),
          el.stats,
        ),
        h(
          "section",
          { class: "history", "aria-labelledby": "recent-title" },
          h("h2", { id: "recent-title" }),
          el.recent,
          el.recall,
        ),
      ),
    );
  }

  // --- drawing -------------------------------------------------------------------------------------

  function drawHead() {
    const table = st.table;
    el.title.textContent = table ? `${table.name} · ${variantName(myVariant())}` : t("loading");
    el.shoe.textContent = table && table.shoe ? `${t("shoe_n", { n: table.shoe.number })} · ${t("limits")} ${money(table.min_bet)}–${money(table.max_bet)}` : "";
    el.conn.textContent = { open: t("connected"), connecting: t("connecting"), closed: t("reconnecting") }[st.connection] || "";
    el.conn.dataset.state = st.connection;
    el.switchLabel.firstChild.textContent = t("other_tables");
    const locked = hasOpenBet();
    el.switcher.replaceChildren(
      ...st.tables.map((other) =>
        h("option", { value: other.id, selected: other.id === tableId }, `${variantName(other.variant)} — ${other.name}`),
      ),
    );
    el.switcher.disabled = locked;
    el.switcher.title = locked ? t("switch_locked") : "";
    // the bettor's own variant (R28): the server refuses a switch with a bet open, and the page says why
    el.variantLabel.firstChild.textContent = t("my_variant");
    const variants = table && table.variants ? Object.keys(table.variants) : table ? [table.variant] : [];
    const mine = myVariant();
    el.variant.replaceChildren(...variants.map((name) => h("option", { value: name, selected: name === mine }, variantName(name))));
    el.variant.value = mine || "";
    el.variant.disabled = variants.length < 2 || !me();
    el.variant.title = variants.length < 2 ? "" : me() ? t("variant_switch") : t("variant_need_seat");
    el.variantLabel.hidden = variants.length < 2;
    view.querySelector("#player-label").textContent = t("player_side");
    view.querySelector("#banker-label").textContent = t("banker_side");
    view.querySelector("#roads-title").textContent = t("roads");
    view.querySelector("#stats-title").textContent = t("shoe_stats");
    view.querySelector("#recent-title").textContent = t("recent_rounds");
    el.seats.setAttribute("aria-label", t("seats"));
    el.spots.setAttribute("aria-label", t("bet_spots"));
    el.chips.setAttribute("aria-label", t("chips"));
  }

  function drawPhase() {
    const round = st.round;
    const status = round ? round.status : "waiting";
    el.phase.dataset.status = status;
    el.phase.textContent = round ? `${t("round_n", { n: round.number })} · ${t(`phase_${status}`)}` : t("phase_waiting");
    tick();
  }

  function tick() {
    const open = st.round && st.round.status === "betting";
    const left = open ? Math.max(0, (st.deadline - performance.now()) / 1000) : 0;
    el.timer.textContent = open ? t("seconds_left", { s: Math.ceil(left) }) : "";
    el.timer.setAttribute("aria-label", `${t("countdown")} ${Math.ceil(left)}`);
    const total = (st.table && st.table.betting_seconds) || 1;
    el.timerBar.firstChild.style.width = `${Math.min(100, (left / total) * 100)}%`;
    const deadline = el.squeezeBar.querySelector("#reveal-deadline");
    if (deadline) {
      const s = Math.max(0, Math.ceil((st.revealAt - performance.now()) / 1000));
      deadline.textContent = t("squeeze_deadline", { s });
      deadline.dataset.seconds = s;
    }
  }

  function pendingOn(bet) {
    return st.pending.filter((p) => p.bet === bet).reduce((sum, p) => sum + p.stake, 0);
  }

  function payText(entry) {
    return entry.pays.map((level) => (entry.pays.length > 1 ? `${levelName(level.level)} ${level.pays}:1` : `${level.pays}:1`)).join(" · ");
  }

  /** The variant this player plays here (R28): their own at the table, else the table's. */
  function myVariant() {
    const mine = me();
    return (mine && mine.variant) || (st.table ? st.table.variant : null);
  }

  /** The bet menu of this player's variant (payouts and limits). */
  function menu() {
    const table = st.table;
    const variant = myVariant();
    return (table.variants && table.variants[variant]) || table.bets;
  }

  function drawSpots() {
    const table = st.table;
    if (!table) return;
    const totals = st.totals || {};
    const canBet = st.round && st.round.status === "betting";
    el.spots.replaceChildren(
      ...menu().map((entry) => {
        const pending = pendingOn(entry.bet);
        const confirmed = st.confirmed[entry.bet] || 0;
        const name = betName(entry);
        const label = [name, t("pays", { p: payText(entry) }), pending ? `${t("pending")} ${money(pending)}` : "", confirmed ? `${t("confirmed")} ${money(confirmed)}` : ""]
          .filter(Boolean)
          .join(", ");
        return h(
          "button",
          {
            type: "button",
            class: `spot spot-${entry.bet}`,
            "data-bet": entry.bet,
            "aria-label": label,
            "aria-disabled": canBet ? null : "true",
            onclick: () => place(entry.bet),
          },
          h("span", { class: "spot-name" }, name),
          h("span", { class: "spot-pays" }, payText(entry)),
          pending ? h("span", { class: "stack pending", "data-pending": pending }, money(pending)) : null,
          confirmed ? h("span", { class: "stack confirmed", "data-confirmed": confirmed }, money(confirmed)) : null,
          totals[entry.bet] ? h("span", { class: "spot-total muted" }, money(totals[entry.bet])) : null,
        );
      }),
    );
  }

  function drawChips() {
    const table = st.table;
    if (!table) return;
    const chips = CHIPS.filter((value) => value <= table.max_bet);
    if (!chips.includes(st.chip)) st.chip = chips.find((value) => value >= table.min_bet) || chips[0];
    el.chips.replaceChildren(
      ...chips.map((value) =>
        h(
          "button",
          {
            type: "button",
            role: "radio",
            class: `chip chip-${value}`,
            "data-value": value,
            "aria-checked": value === st.chip ? "true" : "false",
            "aria-label": t("chip_value", { v: money(value) }),
            tabindex: value === st.chip ? "0" : "-1",
            onclick: () => { st.chip = value; drawChips(); el.chips.querySelector("[aria-checked=true]").focus(); },
            onkeydown: (event) => chipKeys(event, chips),
          },
          chipLabel(value),
        ),
      ),
    );
  }

  function chipKeys(event, chips) {
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    if (!step) return;
    event.preventDefault();
    const i = chips.indexOf(st.chip);
    st.chip = chips[(i + step + chips.length) % chips.length];
    drawChips();
    el.chips.querySelector("[aria-checked=true]").focus();
  }

  function drawActions() {
    const canBet = Boolean(st.round && st.round.status === "betting");
    const button = (id, key, fn, enabled) =>
      h("button", { type: "button", id, class: id === "confirm" ? "primary" : "", disabled: !enabled, onclick: fn }, t(key));
    const total = st.pending.reduce((sum, p) => sum + p.stake, 0);
    el.actions.replaceChildren(
      button("undo", "undo", undo, st.pending.length > 0),
      button("clear", "clear", clear, st.pending.length > 0),
      button("rebet", "rebet", rebet, canBet && st.lastBets.length > 0),
      button("confirm", "confirm", confirm, canBet && st.pending.length > 0),
      h("span", { class: "pending-total", id: "pending-total" }, `${t("pending")} ${money(total)}`),
    );
  }

  function drawWallet() {
    const user = currentUser();
    if (!user) {
      replace(el.wallet, h("button", { type: "button", onclick: askLogin }, t("need_login")));
      return;
    }
    const staked = Object.values(st.confirmed).reduce((a, b) => a + b, 0);
    const mine = me();
    const stack = mine ? mine.balance : 0;
    const owed = mine ? mine.owed : 0;
    replace(
      el.wallet,
      h("span", {}, h("small", {}, t("balance")), " ", h("strong", { id: "table-balance", "data-value": user.balance }, money(user.balance))),
      user.wallet !== undefined ? h("span", {}, h("small", {}, t("wallet")), " ", h("span", { id: "table-wallet", "data-value": user.wallet }, money(user.wallet))) : null,
      h("span", {}, h("small", {}, t("at_table")), " ", h("span", { id: "table-stack", "data-value": stack }, money(stack))),
      h("span", {}, h("small", {}, t("total_bet")), " ", money(staked)),
      h(
        "span",
        { class: "owed-box", title: t("commission_on_leave") },
        h("small", {}, t("commission_box")),
        " ",
        h("span", { id: "table-owed", "data-value": owed }, money(owed)),
        " ",
        h("small", {}, `(${t("commission_on_leave")})`),
      ),
    );
  }

  // --- seats, leaving, refusals ------------------------------------------------------------------------

  /** This player at the table in the server's state ({id, seat, balance, owed, variant}), or null. */
  function me() {
    const user = currentUser();
    if (!user || !st.pub || !st.pub.bettors) return null;
    return st.pub.bettors.find((b) => b.id === user.name) || null;
  }

  function drawSeats() {
    const pub = st.pub;
    if (!pub || !pub.seats) {
      el.seats.replaceChildren();
      return;
    }
    const mine = me();
    const rules = (st.table && st.table.rules) || {};
    const status = mine ? (mine.seat ? t("seat_n", { n: mine.seat }) : t("standing")) : t("not_at_table");
    replace(
      el.seats,
      h("span", { class: "seat-status", id: "seat-status", "data-seat": mine ? mine.seat ?? "standing" : "none" }, status),
      h("span", { class: "muted", id: "table-players", "data-players": pub.players ?? 0 }, `${t("players")} ${pub.players ?? 0}`),
      ...pub.seats.map(({ seat, bettor }) => {
        const state = bettor === null ? "free" : mine && bettor === mine.id ? "mine" : "taken";
        const label = state === "free" ? t("seat_free") : state === "mine" ? t("seat_mine") : bettor;
        return h(
          "button",
          {
            type: "button",
            class: "seat",
            "data-seat": seat,
            "data-state": state,
            disabled: state !== "free",
            "aria-label": `${t("seat_n", { n: seat })}: ${label}${state === "free" ? ` · ${t("sit")}` : ""}`,
            onclick: () => sit(seat),
          },
          String(seat),
          h("small", {}, ` ${label}`),
        );
      }),
      !mine && rules.standing_bettors !== false ? h("button", { type: "button", id: "stand", onclick: stand }, t("stand")) : null,
      mine ? h("button", { type: "button", id: "cash-out", onclick: cashOut }, t("cash_out")) : null,
      mine ? h("button", { type: "button", id: "leave-table", onclick: leaveTable }, t("leave_table")) : null,
    );
  }

  function drawNotice() {
    const notice = st.notice;
    if (!notice) {
      el.notice.replaceChildren();
      delete el.notice.dataset.kind;
      delete el.notice.dataset.rule;
      el.notice.removeAttribute("title");
      return;
    }
    el.notice.dataset.kind = notice.kind;
    if (notice.kind === "error") {
      el.notice.textContent = `${t("refused")}: ${explain(notice.refusal || notice.detail)}`;
      el.notice.dataset.rule = ruleOf(notice.refusal || notice.detail) || "";
      el.notice.title = notice.detail;
    } else {
      el.notice.textContent = t(notice.key, notice.params);
      delete el.notice.dataset.rule;
      el.notice.removeAttribute("title");
    }
  }

  function say(notice) {
    st.notice = notice;
    drawNotice();
    toast(el.notice.textContent, notice.kind === "error" ? "error" : "info");
  }

  function refuse(error) {
    if (error && error.status === 401) {
      askLogin();
      return;
    }
    say({ kind: "error", detail: error ? error.message : "", refusal: error && error.code ? error : null });
  }

  /** Ask for the table's public state: at most once per STATE_MS, the last ask of a burst kept. */
  function requestState() {
    const wait = stateAsked + STATE_MS - performance.now();
    if (wait <= 0) {
      stateAsked = performance.now();
      socket.send({ type: "state" });
    } else if (!stateTimer) {
      stateTimer = setTimeout(() => {
        stateTimer = 0;
        requestState();
      }, wait);
    }
  }

  /**
   * A table action (sit, join, leave, cash-out, reveal, hand-over): over the table's websocket (its
   * `<type>_ok` answer), or POSTed when the socket is down; null when refused.
   */
  async function act(action, body) {
    if (!currentUser()) {
      askLogin();
      return null;
    }
    try {
      const answer = socket.open
        ? await socket.request({ type: action === "variant" ? "switch_variant" : action.replace("-", "_"), ...(body || {}) })
        : await api(`/api/tables/${encodeURIComponent(tableId)}/${action}`, { method: "POST", body });
      requestState();
      refreshUser();
      return answer || {};
    } catch (error) {
      refuse(error);
      return null;
    }
  }

  async function sit(seat) {
    if (!currentUser()) return askLogin();
    let answer;
    if (me()) {
      answer = await act("sit", { seat });
    } else {
      const buyIn = await askBuyIn();
      if (buyIn === null) return;
      answer = await act("join", { seat, buy_in: buyIn });
    }
    if (answer) say({ kind: "info", key: "sat_at", params: { n: seat } });
  }

  async function stand() {
    if (!currentUser()) return askLogin();
    const buyIn = await askBuyIn();
    if (buyIn === null) return;
    if (await act("join", { buy_in: buyIn })) say({ kind: "info", key: "stood", params: {} });
  }

  // --- the buy-in: how much of the wallet comes to the table (default: all of it) ----------------------

  let buyInDone = null;

  function buildBuyIn() {
    const input = h("input", { type: "text", inputmode: "decimal", name: "buy_in", id: "buy-in-amount", autocomplete: "off", required: true });
    const form = h(
      "form",
      { method: "dialog", id: "buy-in-form", class: "auth", novalidate: true, onsubmit: submitBuyIn },
      h("h2", { id: "buy-in-title" }),
      h("label", {}, h("span", { id: "buy-in-label" }), " ", input),
      h("p", { class: "muted", id: "buy-in-hint" }),
      h("p", { class: "notice", id: "buy-in-error", role: "alert", "aria-live": "assertive" }),
      h(
        "div",
        { class: "actions" },
        h("button", { type: "submit", class: "primary", id: "buy-in-confirm", value: "bring" }),
        h("button", { type: "button", id: "buy-in-cancel", onclick: () => closeBuyIn(null) }),
      ),
    );
    const dialog = h("dialog", { id: "buy-in-dialog", "aria-labelledby": "buy-in-title" }, form);
    dialog.addEventListener("cancel", () => finishBuyIn(null));
    return dialog;
  }

  function buyInBounds() {
    const user = currentUser();
    const wallet = user && typeof user.wallet === "number" ? user.wallet : user ? user.balance : 0;
    const min = st.table ? st.table.min_bet || 1 : 1;
    return { wallet, min: Math.min(min, Math.max(wallet, 1)) };
  }

  /** The amount typed (major units, at most two decimals) in minor units, or a reason it is not valid. */
  function parseBuyIn(text) {
    const { wallet, min } = buyInBounds();
    const clean = String(text).trim().replace(/[,\s]/g, "");
    if (wallet <= 0) return { error: t("buy_in_empty") };
    if (!/^\d+(\.\d{1,2})?$/.test(clean)) return { error: t("buy_in_invalid") };
    const [whole, cents = ""] = clean.split(".");
    const amount = Number(whole) * 100 + Number(cents.padEnd(2, "0"));
    if (!Number.isSafeInteger(amount)) return { error: t("buy_in_invalid") };
    if (amount < min) return { error: t("buy_in_too_low", { min: money(min) }) };
    if (amount > wallet) return { error: t("buy_in_too_much", { wallet: money(wallet) }) };
    return { amount };
  }

  function drawBuyIn() {
    const dialog = el.buyIn;
    const { wallet, min } = buyInBounds();
    dialog.querySelector("#buy-in-title").textContent = t("buy_in_title");
    dialog.querySelector("#buy-in-label").textContent = t("buy_in");
    dialog.querySelector("#buy-in-hint").textContent = t("buy_in_hint", { wallet: money(wallet), min: money(min) });
    dialog.querySelector("#buy-in-confirm").textContent = t("bring");
    dialog.querySelector("#buy-in-cancel").textContent = t("cancel");
  }

  /** Ask how much to bring; resolves to minor units, or null when cancelled. */
  async function askBuyIn() {
    await refreshUser();
    if (!alive) return null;
    const dialog = el.buyIn;
    const { wallet } = buyInBounds();
    const input = dialog.querySelector("#buy-in-amount");
    input.value = (wallet / 100).toFixed(2);
    input.removeAttribute("aria-invalid");
    dialog.querySelector("#buy-in-error").textContent = "";
    drawBuyIn();
    if (buyInDone) finishBuyIn(null);
    const answer = new Promise((resolve) => { buyInDone = resolve; });
    dialog.showModal();
    input.select();
    return answer;
  }

  function submitBuyIn(event) {
    event.preventDefault();
    const input = el.buyIn.querySelector("#buy-in-amount");
    const parsed = parseBuyIn(input.value);
    if (parsed.error) {
      input.setAttribute("aria-invalid", "true");
      const error = el.buyIn.querySelector("#buy-in-error");
      error.textContent = parsed.error;
      error.dataset.kind = "error";
      input.focus();
      return;
    }
    closeBuyIn(parsed.amount);
  }

  function finishBuyIn(value) {
    const done = buyInDone;
    buyInDone = null;
    if (done) done(value);
  }

  function closeBuyIn(value) {
    finishBuyIn(value);
    if (el.buyIn.open) el.buyIn.close();
  }

  async function leaveTable() {
    const answer = await act("leave");
    if (answer) say({ kind: "info", key: "left_table", params: { amount: money(answer.amount ?? 0), commission: money(answer.commission ?? 0) } });
  }

  async function cashOut() {
    const answer = await act("cash-out", {});
    if (answer) say({ kind: "info", key: "cashed_out", params: { amount: money(answer.amount ?? 0), commission: money(answer.commission ?? 0) } });
  }

  // --- the cards as the server deals and turns them, and the squeeze -----------------------------------

  function squeezeTable() {
    return Boolean(st.table && st.table.rules && st.table.rules.squeeze);
  }

  function liveRound(roundId) {
    if (st.live.round === roundId) return;
    st.live = { round: roundId, els: {}, squeezers: {} };
    st.revealAt = 0;
    clearHands();
    replace(el.result);
  }

  function setCard(position, code) {
    let cardEl = st.live.els[position];
    if (!cardEl) {
      cardEl = code ? cardElement(code) : hiddenCard();
      cardEl.dataset.position = position;
      st.live.els[position] = cardEl;
      (position.startsWith("player") ? el.playerHand : el.bankerHand).append(cardEl);
      if (code) turnCard(cardEl, code);
    } else if (code && !cardEl.classList.contains("up")) {
      turnCard(cardEl, code);
    }
  }

  function hiddenOf(side) {
    return Object.entries(st.live.els)
      .filter(([position, cardEl]) => position.startsWith(side) && !cardEl.classList.contains("up"))
      .map(([, cardEl]) => cardEl);
  }

  function drawSqueeze() {
    const user = currentUser();
    const parts = [];
    for (const side of ["player", "banker"]) {
      const hidden = hiddenOf(side);
      if (!hidden.length) continue;
      const who = st.live.squeezers[side] ?? null;
      const sideName = t(`${side}_side`);
      if (user && who === user.name) {
        for (const cardEl of hidden) peelable(cardEl, () => revealSide(side));
        parts.push(
          h("span", { class: "squeeze-mine", "data-side": side, "data-who": "mine" }, t("squeeze_yours", { side: sideName })),
          h("button", { type: "button", class: "hand-over", "data-side": side, onclick: () => handOver(side) }, t("hand_over")),
        );
      } else {
        parts.push(h("span", { "data-side": side, "data-who": who ? "other" : "dealer" }, who ? t("squeeze_other", { who, side: sideName }) : t("squeeze_dealer", { side: sideName })));
      }
    }
    if (parts.length && st.revealAt) parts.push(h("span", { class: "timer", id: "reveal-deadline" }));
    el.squeezeBar.replaceChildren(...parts);
    tick();
  }

  async function revealSide(side) {
    if (!(await act("reveal", { side }))) for (const cardEl of hiddenOf(side)) unpeel(cardEl);
  }

  async function handOver(side) {
    if (await act("hand-over", { side })) say({ kind: "info", key: "handed_over", params: {} });
  }

  /** Take the table's public state (the snapshot's or a `state` answer). */
  function takeState(pub) {
    st.pub = pub;
    if (pub.squeezers) st.live.squeezers = { ...pub.squeezers };
    st.revealAt = pub.reveal_deadline ? performance.now() + Math.max(0, pub.reveal_deadline * 1000 - Date.now()) : 0;
    if (squeezeTable() && pub.phase === "dealing" && st.round && pub.cards) {
      liveRound(st.round.id);
      for (const [position, code] of Object.entries(pub.cards)) setCard(position, code);
    }
    drawHead();
    drawSeats();
    drawWallet();
    drawSpots();
    drawSqueeze();
  }

  function drawRoads() {
    const roads = st.table && st.table.roads;
    if (!roads) return;
    const road = (key, svg) => h("figure", { class: `road road-${key}`, "data-road": key }, h("figcaption", {}, t(key)), h("div", { class: "road-scroll" }, svg));
    el.roads.replaceChildren(
      road("bead_plate", beadPlate(roads, 12)),
      road("big_road", bigRoad(roads, 24, 16)),
      ...DERIVED.map((key) => road(key, derivedRoad(roads, key, 24, 11))),
      h("figure", { class: "road road-ask" }, h("figcaption", {}, t("ask_road")), askRoad(roads)),
    );
    el.roads.dataset.results = roads.results || "";
    const c = shoeStats(roads);
    const pct = (n) => (c.n ? `${((n / c.n) * 100).toFixed(1)}%` : "–");
    el.stats.replaceChildren(
      h(
        "dl",
        { class: "stat-list" },
        h("dt", {}, t("hands")), h("dd", { id: "stat-hands" }, String(c.n)),
        h("dt", { class: "banker" }, t("banker")), h("dd", {}, `${c.B} (${pct(c.B)})`),
        h("dt", { class: "player" }, t("player")), h("dd", {}, `${c.P} (${pct(c.P)})`),
        h("dt", { class: "tie" }, t("tie")), h("dd", {}, `${c.T} (${pct(c.T)})`),
        h("dt", {}, t("banker_pair")), h("dd", {}, String(c.bp)),
        h("dt", {}, t("player_pair")), h("dd", {}, String(c.pp)),
      ),
    );
  }

  function winnerText(result) {
    return t(`win_${result.winner}`) + (result.natural ? ` · ${t("natural")}` : "");
  }

  function drawRecent() {
    if (!st.recent.length) {
      el.recent.replaceChildren(h("li", { class: "muted" }, t("no_rounds")));
      return;
    }
    el.recent.replaceChildren(
      ...st.recent.slice(0, 12).map((entry) =>
        h(
          "li",
          {},
          h(
            "button",
            { type: "button", class: `link winner-${entry.result.winner}`, "data-round": entry.round_id, onclick: () => recall(entry.round_id) },
            `${t("round_n", { n: entry.number })}: ${winnerText(entry.result)} ${entry.result.player.total}–${entry.result.banker.total}`,
            entry.mine ? " ★" : "",
          ),
        ),
      ),
    );
  }

  function drawHandsStatic(result) {
    const hands = { player: el.playerHand, banker: el.bankerHand };
    hands.player.replaceChildren(...result.player.cards.map((c) => cardElement(c, { up: true })));
    hands.banker.replaceChildren(...result.banker.cards.map((c) => cardElement(c, { up: true })));
    el.playerTotal.textContent = String(result.player.total);
    el.bankerTotal.textContent = String(result.banker.total);
  }

  function clearHands() {
    el.playerHand.replaceChildren();
    el.bankerHand.replaceChildren();
    el.playerTotal.textContent = "";
    el.bankerTotal.textContent = "";
  }

  function settlementTable(bets) {
    const known = new Map();
    for (const list of st.table ? [st.table.bets, ...Object.values(st.table.variants || {})] : []) for (const b of list) known.set(b.bet, b);
    const name = (bet) => (known.has(bet) ? betName(known.get(bet)) : bet);
    const net = bets.reduce((sum, b) => sum + (b.returned ?? 0) - b.stake, 0);
    return h(
      "table",
      { class: "payouts", id: "payouts" },
      h("caption", {}, t("payout")),
      h("thead", {}, h("tr", {}, ...["bet", "stake", "outcome", "payout", "commission", "returned"].map((k) => h("th", { scope: "col" }, t(k))))),
      h(
        "tbody",
        {},
        ...bets.map((b) =>
          h(
            "tr",
            { "data-bet": b.bet, "data-returned": b.returned ?? 0, "data-stake": b.stake },
            h("th", { scope: "row" }, name(b.bet)),
            h("td", {}, money(b.stake)),
            h("td", { class: `outcome-${b.result}` }, t(`outcome_${b.result}`)),
            h("td", {}, money(b.paid ?? 0)),
            h("td", {}, money(b.commission ?? 0)),
            h("td", {}, money(b.returned ?? 0)),
          ),
        ),
      ),
      h("tfoot", {}, h("tr", {}, h("th", { scope: "row", colspan: 5 }, t("net")), h("td", { id: "net", "data-net": net, class: net >= 0 ? "plus" : "minus" }, `${net >= 0 ? "+" : ""}${money(net)}`))),
    );
  }

  function drawResult(result, roundId, bets) {
    const children = [h("p", { class: `winner winner-${result.winner}`, "data-round": roundId }, winnerText(result), ` · ${t("player")} ${result.player.total} : ${t("banker")} ${result.banker.total}`)];
    if (bets && bets.length) children.push(settlementTable(bets));
    replace(el.result, ...children);
    el.result.dataset.round = roundId;
    el.result.dataset.settled = bets ? "mine" : "table";
  }

  function drawAll() {
    drawHead();
    drawPhase();
    drawSeats();
    drawNotice();
    drawSqueeze();
    drawSpots();
    drawChips();
    drawActions();
    drawWallet();
    drawRoads();
    drawRecent();
    if (st.lastResult && !st.dealing) drawResult(st.lastResult.result, st.lastResult.round_id, st.lastResult.bets);
  }

  // --- betting -------------------------------------------------------------------------------------

  function hasOpenBet() {
    const open = st.confirmedRound !== null && Object.keys(st.confirmed).length > 0;
    return st.pending.length > 0 || open;
  }

  function place(bet) {
    if (!currentUser()) {
      toast(t("need_login"), "error");
      askLogin();
      return;
    }
    if (!st.round || st.round.status !== "betting") {
      toast(t("betting_closed"), "error");
      return;
    }
    const already = pendingOn(bet) + (st.confirmed[bet] || 0);
    if (already + st.chip > st.table.max_bet) {
      toast(`${t("limits")} ${money(st.table.min_bet)}–${money(st.table.max_bet)}`, "error");
      return;
    }
    st.pending.push({ bet, stake: st.chip });
    drawSpots();
    drawActions();
    drawHead();
  }

  function undo() {
    st.pending.pop();
    drawSpots();
    drawActions();
    drawHead();
  }

  function clear() {
    st.pending = [];
    drawSpots();
    drawActions();
    drawHead();
  }

  function rebet() {
    st.pending = st.lastBets.map((b) => ({ ...b }));
    drawSpots();
    drawActions();
  }

  /**
   * Place one bet: over the table's websocket (its `bet_ack`), or POSTed when the socket is down or
   * drops before answering (the same client_id, so the server never takes it twice).
   */
  async function sendBet(body) {
    if (socket.open) {
      try {
        return await socket.request({ type: "bet", ...body });
      } catch (error) {
        if (error && error.status) throw error; // refused by the table
      }
    }
    return api(`/api/tables/${encodeURIComponent(tableId)}/bets`, { method: "POST", body });
  }

  /** A first bet brings the player to the table: ask the buy-in first (the server would bring the whole wallet). */
  async function ensureAtTable() {
    if (me()) return true;
    const buyIn = await askBuyIn();
    if (buyIn === null) return false;
    try {
      const body = { buy_in: buyIn };
      await (socket.open ? socket.request({ type: "join", ...body }) : api(`/api/tables/${encodeURIComponent(tableId)}/join`, { method: "POST", body }));
    } catch (error) {
      if (!/already at the table/.test(error.message)) {
        refuse(error);
        return false;
      }
    }
    requestState();
    refreshUser();
    return true;
  }

  async function confirm() {
    const round = st.round;
    if (!round || round.status !== "betting") return toast(t("betting_closed"), "error");
    const bySpot = new Map();
    for (const p of st.pending) bySpot.set(p.bet, (bySpot.get(p.bet) || 0) + p.stake);
    if ([...bySpot.values()].some((stake) => stake < st.table.min_bet)) {
      return toast(`${t("limits")} ${money(st.table.min_bet)}–${money(st.table.max_bet)}`, "error");
    }
    if (!(await ensureAtTable())) return;
    const placed = [];
    for (const [bet, stake] of bySpot) {
      try {
        const clientId = newClientId();
        const answer = await sendBet({ client_id: clientId, bet, stake, round_id: round.id });
        noteBet((answer && answer.bet) || { id: clientId, round_id: round.id, bet, stake });
        placed.push(bet);
      } catch (error) {
        refuse(error);
      }
    }
    if (placed.length) {
      st.notice = null;
      drawNotice();
      requestState();
      requestBalance();
    }
    st.pending = st.pending.filter((p) => !placed.includes(p.bet));
    if (placed.length) {
      st.lastBets = Object.entries(st.confirmed).map(([bet, stake]) => ({ bet, stake }));
      toast(t("bet_confirmed"));
    }
    drawSpots();
    drawActions();
    drawWallet();
    drawHead();
  }

  async function switchVariant() {
    const wanted = el.variant.value;
    const before = myVariant();
    if (wanted === before) return;
    el.variant.value = before; // shown as switched once the server says so
    if (st.pending.length) {
      say({ kind: "error", detail: t("switch_locked") });
      return;
    }
    const answer = await act("variant", { variant: wanted });
    if (!answer) return;
    const mine = me();
    if (mine) mine.variant = answer.variant || wanted;
    say({ kind: "info", key: "variant_switched", params: { variant: variantName(answer.variant || wanted) } });
    drawHead();
    drawSpots();
  }

  function switchTable() {
    if (hasOpenBet()) {
      toast(t("switch_locked"), "error");
      el.switcher.value = tableId;
      return;
    }
    location.hash = `#/table/${encodeURIComponent(el.switcher.value)}`;
  }

  // --- events --------------------------------------------------------------------------------------

  async function myBets(roundId) {
    if (!currentUser()) return null;
    try {
      const { rounds } = await api("/api/me/history?limit=10");
      const mine = rounds.find((r) => r.round_id === roundId);
      return mine ? mine.bets : null;
    } catch {
      return null;
    }
  }

  async function settled(message) {
    const result = message.result;
    const roundId = message.round_id;
    const mineHere = st.confirmedRound === roundId && Object.keys(st.confirmed).length > 0;
    if (st.round && st.round.id === roundId) st.round.status = "settled";
    drawPhase();
    st.dealing = true;
    replace(el.result);
    el.playerTotal.textContent = "";
    el.bankerTotal.textContent = "";
    if (st.live.round === roundId && Object.keys(st.live.els).length) {
      // the cards are on the table already, dealt and turned as the server did
      for (const side of ["player", "banker"]) result[side].cards.forEach((code, i) => setCard(`${side}_${i + 1}`, code));
      st.revealAt = 0;
      drawSqueeze();
    } else {
      await dealCoup({ player: el.playerHand, banker: el.bankerHand }, result);
    }
    if (!alive) return;
    el.playerTotal.textContent = String(result.player.total);
    el.bankerTotal.textContent = String(result.banker.total);
    st.dealing = false;
    const bets = st.payouts.get(roundId) || null; // my_settlement, when it came during the deal
    st.lastResult = { result, round_id: roundId, bets };
    if (message.roads) st.table.roads = message.roads;
    st.recent.unshift({ round_id: roundId, number: message.number, result, mine: mineHere || Boolean(bets) });
    if (mineHere) forgetBets();
    drawAll();
  }

  /** This player's accepted bet (from this tab's bet_ack or any tab's my_bet): counted once by its id. */
  function noteBet(bet) {
    if (!bet || (st.round && bet.round_id !== st.round.id)) return;
    if (st.confirmedRound !== bet.round_id) {
      forgetBets();
      st.confirmedRound = bet.round_id;
    }
    st.myBets.set(bet.id ?? bet.client_id, bet);
    st.confirmed = {};
    for (const b of st.myBets.values()) st.confirmed[b.bet] = (st.confirmed[b.bet] || 0) + b.stake;
    st.lastBets = Object.entries(st.confirmed).map(([kind, stake]) => ({ bet: kind, stake }));
  }

  function forgetBets() {
    st.confirmed = {};
    st.confirmedRound = null;
    st.myBets = new Map();
  }

  /** This player's money at the table as a private message tells it. */
  function setMine(atTable, owed) {
    const mine = me();
    if (!mine) return;
    if (typeof atTable === "number") mine.balance = atTable;
    if (typeof owed === "number") mine.owed = owed;
  }

  /** Ask for this user's balance (over the socket; over REST when it is down). */
  function requestBalance() {
    if (socket.open) socket.send({ type: "balance" });
    else refreshUser();
  }

  /** A round's payouts of this player (my_settlement): shown with the result when it is on screen. */
  function payoutsOf(message) {
    st.payouts.set(message.round_id, message.bets);
    if (st.payouts.size > 20) st.payouts.delete(st.payouts.keys().next().value);
    setMine(message.at_table, message.commission_owed);
    const shown = st.lastResult && st.lastResult.round_id === message.round_id;
    if (shown) st.lastResult.bets = message.bets;
    const recent = st.recent.find((r) => r.round_id === message.round_id);
    if (recent) recent.mine = true;
    if (st.confirmedRound === message.round_id && !st.dealing) forgetBets(); // else once the deal is shown
    requestBalance();
    drawAll();
  }

  function onMessage(message) {
    if (String(message.type).startsWith("my_") && !currentUser()) return; // meant for a user logged out here
    switch (message.type) {
      case "snapshot": {
        st.table = message.state;
        const round = message.state.round;
        st.round = round ? { id: round.id, number: round.number, status: round.status } : null;
        if (message.state.table) takeState(message.state.table);
        st.totals = (round && round.totals) || {};
        if (round && round.status === "betting") st.deadline = performance.now() + Math.max(0, round.closes_at * 1000 - Date.now());
        if (round && round.status === "settled" && round.result) {
          drawHandsStatic(round.result);
          st.lastResult = { result: round.result, round_id: round.id, bets: null };
        }
        drawAll();
        break;
      }
      case "authenticated":
      case "balance":
        if (message.user) setUser(message.user);
        break;
      case "betting_opened":
        st.round = { id: message.round_id, number: message.number, status: "betting" };
        st.deadline = performance.now() + message.betting_seconds * 1000;
        st.totals = {};
        if (st.confirmedRound !== null && st.confirmedRound !== message.round_id) forgetBets();
        if (!st.dealing) {
          clearHands();
          st.lastResult = null;
          replace(el.result);
          st.live = { round: null, els: {}, squeezers: {} };
          st.revealAt = 0;
          drawSqueeze();
        }
        drawPhase();
        drawSpots();
        drawActions();
        drawHead();
        break;
      case "countdown":
        if (st.pub && message.players !== undefined && message.players !== st.pub.players) {
          st.pub.players = message.players;
          drawSeats();
        }
        if (st.round && st.round.id === message.round_id) {
          st.deadline = performance.now() + message.seconds_left * 1000;
          const totals = message.totals || {};
          const changed = JSON.stringify(totals) !== JSON.stringify(st.totals || {});
          st.totals = totals;
          if (changed) drawSpots(); // the spots are drawn again only when a total moved (a click is never lost)
          tick();
        }
        break;
      case "betting_closed":
        if (st.round && st.round.id === message.round_id) st.round.status = "closed";
        st.pending = [];
        if (squeezeTable()) {
          liveRound(message.round_id);
          st.live.squeezers = { player: message.player_squeezer ?? null, banker: message.banker_squeezer ?? null };
        }
        requestState();
        drawPhase();
        drawSpots();
        drawActions();
        break;
      case "round_settled":
        settled(message);
        requestState();
        break;
      case "round_voided":
        if (st.round && st.round.id === message.round_id) st.round.status = "voided";
        if (st.confirmedRound === message.round_id) forgetBets();
        requestState();
        drawAll();
        break;
      case "shoe_started":
        if (st.table) {
          st.table.shoe = { number: message.shoe, commitment: message.commitment, client_seed: message.client_seed };
          st.table.roads = { bead_plate: [], big_road: { grid: [] }, derived: {}, ask: {}, results: "" };
        }
        drawHead();
        drawRoads();
        break;
      case "error":
        if (message.status !== 401) {
          const { status, code, rule, params, detail } = message;
          refuse({ status, message: detail, code, rule, params, detail });
        }
        break;
      case "state":
        if (message.state) takeState(message.state);
        break;
      case "card_dealt":
        if (squeezeTable()) {
          liveRound(message.round_id);
          setCard(message.position, message.face_down ? null : message.card);
          if (message.face_down) requestState();
          drawSqueeze();
        }
        break;
      case "card_revealed":
        if (squeezeTable() && st.live.round === message.round_id) {
          setCard(message.position, message.card);
          requestState();
          drawSqueeze();
        }
        break;
      case "squeeze_handed_over":
        st.live.squeezers[message.side] = message.to ?? null;
        requestState();
        drawSqueeze();
        break;
      case "bettor_joined":
      case "bettor_sat":
      case "bettor_left":
      case "cashed_out":
      case "funds_added":
      case "variant_switched":
        requestState();
        break;
      // this user's own messages, on every tab: the bets, the payouts, the money brought and taken
      case "my_bet": {
        noteBet(message.bet);
        const mine = me();
        const user = currentUser();
        if (mine && user && typeof message.at_table === "number" && message.at_table !== mine.balance) {
          // the bet moved money from the table to the bet: the user's total moves by as much
          const moved = message.at_table - mine.balance;
          setMine(message.at_table);
          setUser({ ...user, balance: user.balance + moved, at_tables: { ...(user.at_tables || {}), [tableId]: message.at_table } });
        }
        drawSpots();
        drawActions();
        drawWallet();
        drawHead();
        break;
      }
      case "my_settlement":
        payoutsOf(message);
        break;
      case "my_refund":
        setMine(message.at_table, message.commission_owed);
        if (st.confirmedRound === message.round_id) forgetBets();
        requestBalance();
        drawAll();
        break;
      case "my_join":
      case "my_funds":
      case "my_cash_out":
      case "my_leave":
        requestState();
        requestBalance();
        break;
      default:
        break;
    }
  }

  // --- recall --------------------------------------------------------------------------------------

  async function recall(roundId, { focus = true } = {}) {
    st.recalled = roundId;
    replace(el.recall, h("p", { class: "muted" }, t("loading")));
    try {
      const round = await api(`/api/rounds/${roundId}`);
      const bets = await myBets(roundId);
      const result = round.result;
      replace(
        el.recall,
        h("h3", { id: "recall-title", tabindex: "-1" }, `${t("recall")} · ${t("round_n", { n: round.number })}`),
        result
          ? h(
              "div",
              { class: "recall-hands" },
              h("div", {}, h("strong", { class: "player" }, `${t("player")} ${result.player.total}`), h("div", { class: "hand-cards small" }, ...result.player.cards.map((c) => cardElement(c, { up: true })))),
              h("div", {}, h("strong", { class: "banker" }, `${t("banker")} ${result.banker.total}`), h("div", { class: "hand-cards small" }, ...result.banker.cards.map((c) => cardElement(c, { up: true })))),
              h("p", {}, winnerText(result)),
              h("ul", { class: "reasons small" }, ...(result.reasons || []).map((r) => h("li", {}, r))),
            )
          : h("p", {}, t(`phase_${round.status}`)),
        bets && bets.length ? settlementTable(bets) : null,
        h("a", { href: `#/fairness/${roundId}`, class: "button" }, t("verify_round")),
      );
      if (focus) el.recall.querySelector("#recall-title").focus();
    } catch (error) {
      replace(el.recall, h("p", { class: "error" }, error.message));
    }
  }

  async function loadMyRounds() {
    if (!currentUser()) return;
    try {
      const { rounds } = await api("/api/me/history?limit=20");
      for (const r of rounds) {
        if (r.table !== tableId || !r.result || st.recent.some((x) => x.round_id === r.round_id)) continue;
        st.recent.push({ round_id: r.round_id, number: r.number, result: r.result, mine: true });
      }
      st.recent.sort((a, b) => b.round_id - a.round_id);
      drawRecent();
    } catch {
      // the history is a convenience; the table works without it
    }
  }

  // --- life ----------------------------------------------------------------------------------------

  let alive = true;
  let stateAsked = -Infinity;
  let stateTimer = 0;
  build();
  drawAll();
  const socket = new TableSocket(tableId, {
    onMessage,
    onState(state) {
      st.connection = state;
      drawHead();
    },
  });
  api("/api/tables").then(({ tables }) => {
    st.tables = tables;
    drawHead();
  }).catch(() => {});
  loadMyRounds();
  const timer = setInterval(tick, 250);
  const offLang = onLangChange(() => {
    drawAll();
    drawBuyIn();
    if (st.recalled) recall(st.recalled, { focus: false });
  });
  let userId = currentUser() ? currentUser().id : null;
  const offUser = onUserChange((user) => {
    drawWallet();
    drawSeats();
    drawSqueeze();
    const id = user ? user.id : null;
    if (id !== userId) {
      const before = userId;
      userId = id;
      if (user) {
        socket.authenticate();
        loadMyRounds();
      } else if (before !== null) {
        forgetBets();
        socket.restart(); // logged out: a new connection, which hears nobody's private messages
      }
    }
  });
  return () => {
    alive = false;
    clearInterval(timer);
    clearTimeout(stateTimer);
    offLang();
    offUser();
    closeBuyIn(null);
    socket.close();
  };
}
