// @ts-check
// The shoe's counts (hands, Banker, Player, Tie, pairs, naturals, the longest dragons) as the road
// display board and the lobby show them: the server's statistics where they match the roads.

/**
 * @typedef {{coups: number, banker: number, player: number, tie: number, banker_pairs: number, player_pairs: number,
 *   naturals: number, longest_banker: number, longest_player: number}} BoardStats
 */

/**
 * The shoe's counts: the server's statistics (`stats`, baccarat.road_stats.shoe_stats) when it sent
 * them for these roads, else counted from the bead plate.
 * @param {any} roads @param {any} stats @returns {BoardStats}
 */
export function boardStats(roads, stats) {
  const results = (roads && roads.results) || "";
  if (stats && typeof stats.coups === "number" && stats.coups === results.length) {
    return {
      coups: stats.coups, banker: stats.banker, player: stats.player, tie: stats.tie,
      banker_pairs: stats.banker_pairs, player_pairs: stats.player_pairs, naturals: stats.naturals,
      longest_banker: stats.longest_banker_streak ?? 0, longest_player: stats.longest_player_streak ?? 0,
    };
  }
  const out = { coups: 0, banker: 0, player: 0, tie: 0, banker_pairs: 0, player_pairs: 0, naturals: 0, longest_banker: 0, longest_player: 0 };
  const side = { B: "banker", P: "player", T: "tie" };
  for (const column of (roads && roads.bead_plate) || []) {
    for (const bead of column) {
      if (!bead || !(bead.result in side)) continue;
      out.coups += 1;
      out[side[bead.result]] += 1;
      if (bead.banker_pair) out.banker_pairs += 1;
      if (bead.player_pair) out.player_pairs += 1;
      if (bead.natural) out.naturals += 1;
    }
  }
  for (const column of (roads && roads.big_road && roads.big_road.columns) || []) {
    if (!column.length) continue;
    if (column[0].result === "B") out.longest_banker = Math.max(out.longest_banker, column.length);
    if (column[0].result === "P") out.longest_player = Math.max(out.longest_player, column.length);
  }
  return out;
}

/** A share of the hands as a whole percentage ("–" before the first hand). @param {number} count @param {number} coups */
export function share(count, coups) {
  return coups ? `${Math.round((count / coups) * 100)}%` : "–";
}

