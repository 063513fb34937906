// @ts-check
// Where the pips of each rank lie on a card's face, as on a standard French-suited deck: x and y in
// percent of the pip field (the face less its corner indices). A pip below the middle is drawn upside down.

/** @type {Record<string, [number, number][]>} */
const SIDE = {
  4: [[18, 10], [82, 10], [18, 90], [82, 90]],
  6: [[18, 10], [82, 10], [18, 50], [82, 50], [18, 90], [82, 90]],
  8: [[18, 10], [82, 10], [18, 37], [82, 37], [18, 63], [82, 63], [18, 90], [82, 90]],
};

/** @type {Record<string, [number, number][]>} */
export const PIPS = {
  A: [[50, 50]],
  2: [[50, 10], [50, 90]],
  3: [[50, 10], [50, 50], [50, 90]],
  4: SIDE[4],
  5: [...SIDE[4], [50, 50]],
  6: SIDE[6],
  7: [...SIDE[6], [50, 30]],
  8: [...SIDE[6], [50, 30], [50, 70]],
  9: [...SIDE[8], [50, 50]],
  10: [...SIDE[8], [50, 23], [50, 77]],
};

/** The pips of a rank ("A", "2" … "10"); a court card (J, Q, K) has none. @param {string} rank */
export function pipsOf(rank) {
  return PIPS[rank] || [];
}
