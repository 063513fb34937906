// @ts-check
// The lobby's cards as data: each table's settings, round, players, roads and statistics, kept up to
// date by a pure reducer over the table's public messages; the seconds of betting left, the shoe's
// Banker / Player / Tie counts and the good roads the big road ends with.

import { currentAlerts } from "../../alerts.js";
import { boardStats } from "../../counts.js";

/**
 * @typedef {{id: number, number: number, status: string}} LobbyRound
 * @typedef {{table: any, round: LobbyRound|null, roads: any, stats: any, players: number, deadline: number}} LobbyEntry
 */

/** A table of `GET /api/tables`, before its socket says more. @param {any} table @returns {LobbyEntry} */
export function lobbyEntry(table) {
  const r = table.round || null;
  return { table, round: r ? { id: r.id, number: r.number, status: r.status } : null, roads: null, stats: null, players: table.players ?? 0, deadline: 0 };
}

/**
 * The entry after one of its table's messages, at `now` (ms); the same entry when the message changes
 * nothing the lobby shows.
 * @param {LobbyEntry} entry @param {any} message @param {number} now @returns {LobbyEntry}
 */
export function applyLobby(entry, message, now) {
  switch (message.type) {
    case "snapshot": {
      const view = message.state || {};
      const r = view.round || null;
      const betting = r && r.status === "betting" && typeof r.closes_at === "number";
      return {
        table: view,
        round: r ? { id: r.id, number: r.number, status: r.status } : null,
        roads: view.roads || null,
        stats: view.stats || null,
        players: view.players ?? entry.players,
        deadline: betting ? r.closes_at * 1000 : 0,
      };
    }
    case "betting_opened":
      return { ...entry, round: { id: message.round_id, number: message.number, status: "betting" }, deadline: now + Number(message.betting_seconds || 0) * 1000 };
    case "countdown": {
      const next = { ...entry, deadline: now + Number(message.seconds_left) * 1000 };
      if (message.players !== undefined) next.players = message.players;
      return next;
    }
    case "betting_closed":
      return entry.round ? { ...entry, round: { ...entry.round, status: "closed" }, deadline: 0 } : entry;
    case "round_settled":
      return {
        ...entry,
        round: entry.round ? { ...entry.round, status: "settled" } : null,
        roads: message.roads || entry.roads,
        stats: message.stats || entry.stats,
        deadline: 0,
      };
    case "round_voided":
      return entry.round ? { ...entry, round: { ...entry.round, status: "voided" }, deadline: 0 } : entry;
    case "bettor_joined":
    case "bettor_left":
      return { ...entry, players: Math.max(0, entry.players + (message.type === "bettor_joined" ? 1 : -1)) };
    case "shoe_started":
      return { ...entry, roads: null, stats: null };
    case "table_changed":
      return message.open === undefined ? entry : { ...entry, table: { ...entry.table, open: message.open } };
    default:
      return entry;
  }
}

/** Whole seconds of betting left at `now` (0 when betting is not open). @param {LobbyEntry} entry @param {number} now */
export function secondsLeft(entry, now) {
  if (!entry.round || entry.round.status !== "betting" || !entry.deadline) return 0;
  return Math.max(0, Math.ceil((entry.deadline - now) / 1000));
}

/**
 * What a card shows of the shoe: Banker / Player / Tie counts and the good roads it ends with now.
 * @param {LobbyEntry} entry
 */
export function shoeFacts(entry) {
  const counts = boardStats(entry.roads, entry.stats);
  return { counts, alerts: entry.roads ? currentAlerts(entry.roads, entry.stats) : [] };
}
