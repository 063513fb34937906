// @ts-check
// The responsible-gaming page's words (简体中文 is made from the Traditional).

import { extend } from "../i18n.js";

extend({
  "zh-Hant": {
    safer_play: "理性博彩",
    limits_title: "理性博彩：你的限額",
    limits_intro: "你可以隨時收緊自己的限額，即時生效；放寬限額須由場方處理。自我禁止期間不能登入或下注，期滿自動解除。",
    limits_login: "請先登入以設定限額",
    limits_loss: "每日輸額上限", limits_loss_none: "不設上限", limits_lost: "今日已輸", limits_left: "今日尚可輸",
    limits_reminder: "遊戲時間提示（分鐘）", limits_reminder_none: "不提示",
    limits_exclude: "自我禁止（日數）", limits_exclude_help: "設定後即時登出，期滿前不能登入",
    limits_excluded_until: "自我禁止至 {when}",
    limits_save: "儲存", limits_saved: "限額已更新", limits_bad_amount: "「{amount}」不是金額：請輸入例如 200 或 200.50",
    limits_reminder_toast: "你已玩了 {m} 分鐘。今日輸額 {lost}。",
    limits_reminder_toast_limit: "你已玩了 {m} 分鐘。今日輸額 {lost}，上限 {limit}。",
  },
  en: {
    safer_play: "Safer play",
    limits_title: "Safer play: your limits",
    limits_intro: "You can tighten your own limits at any time, at once; loosening one is for the house. While you exclude yourself you cannot log in or bet; the exclusion ends by itself.",
    limits_login: "Log in to set your limits",
    limits_loss: "Daily loss limit", limits_loss_none: "No limit", limits_lost: "Lost today", limits_left: "Left today",
    limits_reminder: "Play-time reminder (minutes)", limits_reminder_none: "No reminder",
    limits_exclude: "Exclude myself (days)", limits_exclude_help: "You are logged out at once and cannot log in before it ends",
    limits_excluded_until: "Excluded until {when}",
    limits_save: "Save", limits_saved: "Your limits are saved", limits_bad_amount: "“{amount}” is not an amount: write e.g. 200 or 200.50",
    limits_reminder_toast: "You have played {m} minutes. Lost today: {lost}.",
    limits_reminder_toast_limit: "You have played {m} minutes. Lost today: {lost} of your {limit} limit.",
  },
});
