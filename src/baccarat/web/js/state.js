// @ts-check
// The table as this page knows it, and the pure reducer `apply(state, message, now)` over the server's
// websocket vocabulary (docs/api.md: the snapshot, the public messages, this user's `my_…` messages
// and the replies) plus a few messages of the page itself (`local_…`: the connection, the user, this
// user at the table as GET /api/tables/{id}/me tells it, the chips placed but not yet confirmed).
// The public state names bettors by their masked display name and shows no one's money or own bets:
// this user's seat comes from it (by the user's display name), their money and bets from `local_me`
// and the `my_…` messages. Nothing here touches the page: the views draw from the state.

/**
 * @typedef {{bet: string, stake: number}} Stake
 * @typedef {{id?: number|null, client_id?: string, round_id?: number|null, bet: string, stake: number, status?: string}} MyBet
 * @typedef {{bet: string, stake: number, result: string, paid?: number, commission?: number, owed?: number, returned?: number, level?: string}} Payout
 * @typedef {{id: number, number: number, status: string}} Round
 * @typedef {{player: {cards: string[], total: number}, banker: {cards: string[], total: number}, winner: string, natural?: boolean, reasons?: string[], cards?: string[]}} Result
 * @typedef {{round_id: number, number: number, result: Result, mine: boolean}} Recent
 * @typedef {{round_id: number, number: number|null, result: Result, bets: Payout[]|null, at: number}} Shown
 * @typedef {{id: number, name: string, balance: number, wallet?: number, at_tables?: Record<string, number>, commission_owed?: number, role?: string, display_name?: string}} User
 * @typedef {{id: string, seat: number|null, balance?: number, owed?: number, variant?: string}} Bettor
 * @typedef {{bet: string, stake: number, spot?: number|null, count?: number, carried?: boolean}} PublicBet
 * @typedef {{at_table: boolean, seat?: number|null, balance?: number, available?: number, owed?: number, variant?: string, bets?: {bet: string, stake: number, spot?: number|null, carried?: boolean}[], squeeze?: Record<string, string>}} MeAtTable
 * @typedef {{phase?: string, seats?: {seat: number, bettor: string|null}[], players?: number, bettors?: Bettor[], bets?: PublicBet[], cards?: Record<string, string|null>, squeezers?: Record<string, string|null>, reveal_deadline?: number|null}} PublicState
 * @typedef {"loading"|"ready"|"missing"} Status
 * @typedef {"connecting"|"open"|"closed"|"missing"} Connection
 * @typedef {{
 *   status: Status,
 *   connection: Connection,
 *   retryAt: number,
 *   table: any,
 *   open: boolean,
 *   pub: PublicState|null,
 *   round: Round|null,
 *   deadline: number,
 *   totals: Record<string, number>,
 *   user: User|null,
 *   myRound: number|null,
 *   myBets: Record<string, MyBet>,
 *   fromServer: Record<string, number>,
 *   seen: Record<string, boolean>,
 *   lastBets: Stake[],
 *   pending: Stake[],
 *   payouts: Record<string, Payout[]>,
 *   atTable: number|null,
 *   owed: number|null,
 *   shown: Shown|null,
 *   recent: Recent[],
 *   dropped: number,
 * }} TableState
 * @typedef {{type: string, [field: string]: any}} Message
 */

/** How long the result stays on screen after the round settles (ms), unless the table says. */
export const RESULT_MS = 4500;

/**
 * The result phase of a table (ms): its `settle_pause_seconds`, at least 3 s and at most 6 s (a
 * table that opens betting again sooner still shows the result that long).
 * @param {any} table
 */
export function resultMs(table) {
  const seconds = table && typeof table.settle_pause_seconds === "number" ? table.settle_pause_seconds : RESULT_MS / 1000;
  return Math.round(Math.min(6, Math.max(3, seconds)) * 1000);
}

/** The state before the snapshot comes. @returns {TableState} */
export function initialState() {
  return {
    status: "loading",
    connection: "connecting",
    retryAt: 0,
    table: null,
    open: true,
    pub: null,
    round: null,
    deadline: 0,
    totals: {},
    user: null,
    myRound: null,
    myBets: {},
    fromServer: {}, seen: {},
    lastBets: [],
    pending: [],
    payouts: {},
    atTable: null,
    owed: null,
    shown: null,
    recent: [],
    dropped: 0,
  };
}

/** This user's bettor id at the table (the public state names bettors by their masked display name). */
export function myName(state) {
  return state.user ? state.user.display_name || state.user.name : null;
}

/** This user at the table in the public state, or null. @param {TableState} state @returns {Bettor|null} */
export function me(state) {
  const name = myName(state);
  if (!name || !state.pub || !state.pub.bettors) return null;
  return state.pub.bettors.find((b) => b.id === name) || null;
}

/**
 * This user's confirmed stakes of the current round, by bet: what the server said of this user at
 * the table (`local_me`) plus the bets accepted since (bet_ack, my_bet), and never less than the
 * accepted bets add up to; so a reload finds every bet the server holds, and a bet accepted after
 * (in any tab) adds to them.
 * @param {TableState} state
 * @returns {Record<string, number>}
 */
export function confirmedStakes(state) {
  /** @type {Record<string, number>} */
  const acked = {};
  const out = { ...state.fromServer };
  for (const [key, b] of Object.entries(state.myBets)) {
    acked[b.bet] = (acked[b.bet] || 0) + b.stake;
    if (!state.seen[key]) out[b.bet] = (out[b.bet] || 0) + b.stake; // accepted after the server's answer
  }
  for (const [bet, stake] of Object.entries(acked)) out[bet] = Math.max(out[bet] || 0, stake);
  for (const [bet, stake] of Object.entries(out)) if (!stake) delete out[bet];
  return out;
}

/** The confirmed stakes as a list (for rebet and double). @param {Record<string, number>} stakes @returns {Stake[]} */
function asList(stakes) {
  return Object.entries(stakes).map(([bet, stake]) => ({ bet, stake }));
}

/** The sum of this user's confirmed stakes. @param {TableState} state */
export function confirmedTotal(state) {
  return Object.values(confirmedStakes(state)).reduce((a, b) => a + b, 0);
}

/** The sum of the chips placed but not confirmed. @param {TableState} state */
export function pendingTotal(state) {
  return state.pending.reduce((sum, p) => sum + p.stake, 0);
}

/** The chips placed on one bet, not yet confirmed. @param {TableState} state @param {string} bet */
export function pendingOn(state, bet) {
  return state.pending.filter((p) => p.bet === bet).reduce((sum, p) => sum + p.stake, 0);
}

/** Whether betting is open now. @param {TableState} state */
export function canBet(state) {
  return Boolean(state.open && state.round && state.round.status === "betting");
}

/** Whole seconds left to bet (0 when closed). @param {TableState} state @param {number} now */
export function secondsLeft(state, now) {
  if (!canBet(state)) return 0;
  return Math.max(0, Math.ceil((state.deadline - now) / 1000));
}

/** The public state with only the bets carried over a tie (R24): the round's others are settled. */
function settledPub(pub) {
  if (!pub) return pub;
  return { ...pub, bets: (pub.bets || []).filter((b) => b.carried) };
}

/** Forget this user's bets of a round that ended, keeping them for rebet. @param {TableState} state */
function endMyRound(state) {
  const stakes = confirmedStakes(state);
  const lastBets = Object.keys(stakes).length ? asList(stakes) : state.lastBets;
  return { ...state, myRound: null, myBets: {}, fromServer: {}, seen: {}, lastBets };
}

/** Take the table's public state (snapshot or `state` reply). @param {TableState} state @param {PublicState} pub */
function takePub(state, pub) {
  const next = { ...state, pub };
  const mine = me(next);
  if (mine) {
    // the public state shows nobody's money: this user's comes from their account (local_user, local_me)
    // and the my_* messages; an older server's public state still carried it
    const own = state.user && state.user.at_tables && state.table ? state.user.at_tables[state.table.id] : undefined;
    next.atTable = typeof mine.balance === "number" ? mine.balance : state.atTable ?? (typeof own === "number" ? own : null);
    next.owed = typeof mine.owed === "number" ? mine.owed : state.owed;
  }
  return next;
}

/**
 * This user at the table as GET /api/tables/{id}/me answered (asked while round `m.round` was the
 * table's): their money there, and their bets when the round is still the same and not settled.
 * @param {TableState} state @param {Message} m
 */
function takeMe(state, m) {
  /** @type {MeAtTable} */
  const mine = m.me || { at_table: false };
  const next = { ...state, atTable: mine.at_table ? mine.balance ?? 0 : 0, owed: mine.at_table ? mine.owed ?? 0 : 0 };
  const round = state.round;
  if (!round || round.id !== m.round || (round.status !== "betting" && round.status !== "closed")) return next;
  /** @type {Record<string, number>} */
  const stakes = {};
  for (const b of mine.bets || []) stakes[b.bet] = (stakes[b.bet] || 0) + b.stake;
  next.fromServer = stakes;
  next.seen = Object.fromEntries(Object.keys(state.myBets).map((key) => [key, true]));
  if (Object.keys(stakes).length) next.myRound = round.id;
  return next;
}

/** @param {TableState} state @param {Message} message @param {number} now */
function snapshot(state, message, now) {
  const table = message.state || {};
  const r = table.round || null;
  /** @type {TableState} */
  let next = {
    ...state,
    status: "ready",
    table,
    open: table.open !== false,
    round: r ? { id: r.id, number: r.number, status: r.status } : null,
    totals: (r && r.totals) || {},
    deadline: r && r.status === "betting" && typeof r.closes_at === "number" ? r.closes_at * 1000 : 0,
    myBets: r && state.myRound === r.id ? state.myBets : {},
    myRound: r && state.myRound === r.id ? state.myRound : null,
    fromServer: r && state.myRound === r.id ? state.fromServer : {},
    seen: r && state.myRound === r.id ? state.seen : {},
  };
  if (r && r.status === "settled" && r.result && !(state.shown && state.shown.round_id === r.id)) {
    next.shown = { round_id: r.id, number: r.number, result: r.result, bets: state.payouts[r.id] || null, at: now };
  }
  if (table.table) next = takePub(next, table.table);
  if (r && r.status !== "betting" && r.status !== "closed") next = { ...next, fromServer: {}, seen: {}, myBets: {}, myRound: null };
  return next;
}

/** @param {TableState} state @param {Message} message @param {number} now */
function bettingOpened(state, message, now) {
  const next = state.myRound !== null && state.myRound !== message.round_id ? endMyRound(state) : state;
  return {
    ...next,
    round: { id: message.round_id, number: message.number, status: "betting" },
    deadline: now + Number(message.betting_seconds || 0) * 1000,
    totals: {},
    pending: [],
    dropped: next.dropped + (next.pending.length ? 1 : 0),
    pub: settledPub(next.pub),
  };
}

/** @param {TableState} state @param {Message} message @param {number} now */
function countdown(state, message, now) {
  if (!state.round || state.round.id !== message.round_id) return state;
  const moved = state.pub && typeof message.players === "number" && message.players !== state.pub.players;
  const pub = moved ? { ...state.pub, players: message.players } : state.pub;
  return { ...state, pub, deadline: now + Number(message.seconds_left) * 1000, totals: message.totals || state.totals };
}

/** @param {TableState} state @param {string} status @param {number} roundId */
function roundStatus(state, status, roundId) {
  if (!state.round || state.round.id !== roundId) return state;
  return { ...state, round: { ...state.round, status } };
}

/** @param {TableState} state @param {Message} message @param {number} now */
function roundSettled(state, message, now) {
  const roundId = message.round_id;
  const mine = state.myRound === roundId && Object.keys(confirmedStakes(state)).length > 0;
  const bets = state.payouts[roundId] || null;
  let next = roundStatus(state, "settled", roundId);
  const recent = [
    { round_id: roundId, number: message.number, result: message.result, mine: mine || Boolean(bets) },
    ...state.recent.filter((r) => r.round_id !== roundId),
  ].slice(0, 50);
  const table = message.roads && next.table ? { ...next.table, roads: message.roads, stats: message.stats ?? next.table.stats } : next.table;
  next = { ...next, table, recent, shown: { round_id: roundId, number: message.number, result: message.result, bets, at: now } };
  if (mine || state.myRound === roundId) next = endMyRound(next);
  return { ...next, pub: settledPub(next.pub) };
}

/** @param {TableState} state @param {MyBet} bet @param {number|null|undefined} balance @param {number|null|undefined} atTable */
function myBet(state, bet, balance, atTable) {
  if (!bet || (state.round && bet.round_id !== state.round.id)) return state;
  let next = state.myRound !== bet.round_id ? { ...state, myBets: {}, fromServer: {}, seen: {}, myRound: bet.round_id ?? null } : state;
  const key = String(bet.id ?? bet.client_id);
  next = { ...next, myBets: { ...next.myBets, [key]: bet } };
  next.lastBets = asList(confirmedStakes(next));
  if (typeof atTable === "number") next.atTable = atTable;
  if (typeof balance === "number" && next.user) next.user = { ...next.user, balance };
  return next;
}

/** @param {TableState} state @param {Message} message */
function mySettlement(state, message) {
  const payouts = { ...state.payouts, [message.round_id]: message.bets };
  const keys = Object.keys(payouts);
  if (keys.length > 20) delete payouts[keys[0]];
  let next = { ...state, payouts, owed: message.commission_owed ?? state.owed };
  next = moveAtTable(next, message.at_table);
  if (next.shown && next.shown.round_id === message.round_id) next.shown = { ...next.shown, bets: message.bets };
  next.recent = next.recent.map((r) => (r.round_id === message.round_id ? { ...r, mine: true } : r));
  if (next.myRound === message.round_id) next = endMyRound(next);
  return next;
}

/** The money at this table is now `atTable`: the user's total balance moves by as much. */
function moveAtTable(state, atTable) {
  if (typeof atTable !== "number") return state;
  const before = state.atTable;
  const user = state.user && typeof before === "number" ? { ...state.user, balance: state.user.balance + atTable - before } : state.user;
  return { ...state, atTable, user };
}

/** @param {TableState} state @param {Message} message */
function myRefund(state, message) {
  let next = moveAtTable({ ...state, owed: message.commission_owed ?? state.owed }, message.at_table);
  if (next.myRound === message.round_id) next = { ...next, myRound: null, myBets: {}, fromServer: {}, seen: {} };
  return next;
}

/** @param {TableState} state @param {Message} message */
function error(state, message) {
  if (message.code === "table.not_found" && (message.ref === null || message.ref === undefined)) {
    return { ...state, status: "missing", connection: "missing" };
  }
  return state;
}

/** The page's own messages: the connection, the user, the chips not yet confirmed. */
const LOCAL = {
  /** @param {TableState} state @param {Message} m */
  local_connection: (state, m) => ({ ...state, connection: m.connection, retryAt: m.retryAt || 0 }),
  /** @param {TableState} state @param {Message} m */
  local_user: (state, m) => {
    const user = m.user || null;
    const same = state.user && user && state.user.id === user.id;
    const next = { ...state, user };
    if (!same) Object.assign(next, { myBets: {}, myRound: null, fromServer: {}, seen: {}, pending: [], lastBets: [], payouts: {}, atTable: null, owed: null });
    // the account as the server just told it: the money at this table is its own word
    if (user && user.at_tables && state.table && state.table.id) next.atTable = user.at_tables[state.table.id] ?? 0;
    return next.pub ? takePub(next, next.pub) : next;
  },
  local_me: takeMe,
  /** @param {TableState} state @param {Message} m */
  local_place: (state, m) => ({ ...state, pending: [...state.pending, ...(m.stakes || [{ bet: m.bet, stake: m.stake }])] }),
  /** @param {TableState} state */
  local_undo: (state) => ({ ...state, pending: state.pending.slice(0, -1) }),
  /** @param {TableState} state */
  local_clear: (state) => ({ ...state, pending: [] }),
  /** @param {TableState} state @param {Message} m */
  local_confirmed: (state, m) => ({ ...state, pending: state.pending.filter((p) => !(m.bets || []).includes(p.bet)) }),
  /** @param {TableState} state */
  local_drop: (state) => (state.pending.length ? { ...state, pending: [], dropped: state.dropped + 1 } : state),
  /** @param {TableState} state @param {Message} m */
  local_last_bets: (state, m) => (state.lastBets.length ? state : { ...state, lastBets: m.bets || [] }),
  /** @param {TableState} state @param {Message} m */
  local_recent: (state, m) => {
    const known = new Set(state.recent.map((r) => r.round_id));
    const more = (m.rounds || []).filter((/** @type {Recent} */ r) => !known.has(r.round_id));
    return { ...state, recent: [...state.recent, ...more].sort((a, b) => b.round_id - a.round_id).slice(0, 50) };
  },
};

/** The server's messages this reducer knows, by type. */
const SERVER = {
  snapshot,
  betting_opened: bettingOpened,
  countdown,
  round_settled: roundSettled,
  error,
  /** @param {TableState} state @param {Message} m */
  betting_closed: (state, m) => LOCAL.local_drop(roundStatus(state, "closed", m.round_id)),
  /** @param {TableState} state @param {Message} m */
  round_voided: (state, m) => {
    const next = roundStatus(state, "voided", m.round_id);
    return next.myRound === m.round_id ? { ...next, myRound: null, myBets: {}, fromServer: {}, seen: {}, pub: settledPub(next.pub) } : next;
  },
  /** @param {TableState} state @param {Message} m */
  table_changed: (state, m) => (typeof m.open === "boolean" ? { ...state, open: m.open, table: state.table && { ...state.table, open: m.open } } : state),
  /** @param {TableState} state @param {Message} m */
  shoe_started: (state, m) =>
    state.table
      ? {
          ...state,
          table: {
            ...state.table,
            shoe: { number: m.shoe, commitment: m.commitment, client_seed: m.client_seed },
            roads: { bead_plate: [], big_road: { grid: [] }, derived: {}, ask: {}, results: "" },
            stats: null,
          },
        }
      : state,
  /** @param {TableState} state @param {Message} m */
  state: (state, m) => (m.state ? takePub(state, m.state) : state),
  /** @param {TableState} state @param {Message} m */
  authenticated: (state, m) => (m.user ? LOCAL.local_user(state, m) : state),
  /** @param {TableState} state @param {Message} m */
  balance: (state, m) => (m.user ? LOCAL.local_user(state, m) : state),
  /** @param {TableState} state @param {Message} m */
  bet_ack: (state, m) => myBet(state, m.bet, m.balance, undefined),
  /** @param {TableState} state @param {Message} m */
  my_bet: (state, m) => myBet(state, m.bet, m.balance, m.at_table),
  my_settlement: mySettlement,
  my_refund: myRefund,
};

/**
 * The state after one message (the server's, or the page's own `local_…`). Pure: `now` is the
 * caller's clock (ms, the clock the views count the countdown with); unknown messages change nothing.
 * @param {TableState} state @param {Message} message @param {number} [now]
 * @returns {TableState}
 */
export function apply(state, message, now = 0) {
  if (!message || typeof message.type !== "string") return state;
  if (message.type.startsWith("my_") && !state.user) return state; // for a user logged out here
  const step = SERVER[message.type] || LOCAL[message.type];
  return step ? step(state, message, now) : state;
}

/** Whether the result of the last round is still on screen at `now`. @param {TableState} state @param {number} now */
export function showingResult(state, now) {
  return Boolean(state.shown && now - state.shown.at < resultMs(state.table));
}

/** The bets of the last round to place again (rebet). @param {TableState} state @returns {Stake[]} */
export function rebetStakes(state) {
  return state.lastBets.map((b) => ({ ...b }));
}

/** The confirmed bets of this round placed once more (double). @param {TableState} state @returns {Stake[]} */
export function doubleStakes(state) {
  return asList(confirmedStakes(state));
}
