// @ts-check
// The odds lab's words for its live advisor and its perfect-knowledge bound (简体中文 is made from the Traditional).

import { extend } from "../i18n.js";

extend({
  "zh-Hant": {
    adv_title: "即時分析：下一局每注的精確期望值",
    adv_intro: "跟隨本場一張賭枱的公開資料（已開的牌），按牌靴內餘下的牌精確計算下一局每一注的期望值；正期望值的注項以綠色標示。燒牌不計入。",
    adv_table: "跟隨賭枱", adv_choose: "選擇賭枱…",
    adv_idle: "未跟隨任何賭枱", adv_reading: "正在讀取賭枱紀錄…", adv_live: "即時更新中", adv_reconnecting: "連線中斷，正在重新連線…",
    adv_table_gone: "此賭枱已不存在",
    adv_cards: "已見 {seen} 張，餘 {left} 張", adv_update: "第 {n} 次更新",
    adv_caption: "下一局：每注的精確期望值（每 1 注碼）", adv_positive: "正期望值",
    orc_title: "完全知情的上限",
    orc_intro: "一個看得見每一張已開牌的玩家，只在某注下一局期望值為正時下 1 注碼：任何「預測程式」最多只能賺到這麼多。",
    orc_busy: "正在計算 {shoes} 靴…",
    orc_summary: "{shoes} 靴，{coups} 局，用時 {seconds} 秒，種子 {seed}",
    orc_gain_title: "每靴收益（每 1 注碼）",
    orc_gain_help: "長條：每靴預期收益（正期望值之和）；圓點與橫線：實際收益及其 95% 區間。",
    orc_depth_title: "正期望值出現的頻率（按牌靴進度）",
    orc_coups: "正期望值局數比例", orc_shoes: "出現過的牌靴", orc_edge: "平均優勢", orc_expected: "預期收益／靴", orc_realised: "實際收益／靴",
  },
  en: {
    adv_title: "Live advisor: each bet's exact EV for the next coup",
    adv_intro: "Follows a table of this server from its public data (the cards turned) and prices every bet exactly for the next coup from the cards left in the shoe; bets with a positive expected value are marked green. Burned cards are not counted.",
    adv_table: "Follow table", adv_choose: "Choose a table…",
    adv_idle: "Not following a table", adv_reading: "Reading the table's history…", adv_live: "Live", adv_reconnecting: "Connection lost, reconnecting…",
    adv_table_gone: "This table no longer exists",
    adv_cards: "{seen} cards seen, {left} left", adv_update: "update {n}",
    adv_caption: "Next coup: each bet's exact expected value (per unit staked)", adv_positive: "+EV",
    orc_title: "The perfect-knowledge bound",
    orc_intro: "A player who sees every card dealt and stakes one unit on a bet only when its expected value for the next coup is positive: no “prediction program” can gain more.",
    orc_busy: "Dealing {shoes} shoes…",
    orc_summary: "{shoes} shoes, {coups} coups, {seconds} s, seed {seed}",
    orc_gain_title: "Gain per shoe (per unit staked)",
    orc_gain_help: "Bars: the expected gain per shoe (the sum of the positive EVs); dots and lines: the realised gain and its 95% interval.",
    orc_depth_title: "How often each bet is +EV, by penetration",
    orc_coups: "Coups at +EV", orc_shoes: "Shoes with one", orc_edge: "Mean edge", orc_expected: "Expected / shoe", orc_realised: "Realised / shoe",
  },
});
