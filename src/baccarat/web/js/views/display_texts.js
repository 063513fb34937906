// @ts-check
// The words of the road display board (#/display/ID), in 繁體中文 and English (简体中文 is made from
// the Traditional by i18n.js).

import { extend } from "../i18n.js";

extend({
  "zh-Hant": {
    display: "路單顯示屏",
    board_limits: "各注限紅",
    board_stats: "本靴統計",
    board_naturals: "天牌",
    board_longest_banker: "最長連莊",
    board_longest_player: "最長連閒",
    board_last: "上一局",
    board_points: "{n} 點",
    board_no_result: "等候本靴第一局",
    board_alerts: "好路提示",
    board_no_alerts: "暫無好路",
    board_dealing: "開牌中",
    board_settled: "開牌結果",
    board_hands_n: "{n} 局",
    board_hands_one: "1 局",
    board_lang: "顯示語言",
  },
  en: {
    display: "Road display board",
    board_limits: "Bet limits",
    board_stats: "This shoe",
    board_naturals: "Naturals",
    board_longest_banker: "Banker streak",
    board_longest_player: "Player streak",
    board_last: "Last hand",
    board_points: "{n}",
    board_no_result: "Waiting for the shoe's first hand",
    board_alerts: "Good roads",
    board_no_alerts: "No good road now",
    board_dealing: "Dealing",
    board_settled: "Result",
    board_hands_n: "{n} hands",
    board_hands_one: "1 hand",
    board_lang: "Board language",
  },
});
