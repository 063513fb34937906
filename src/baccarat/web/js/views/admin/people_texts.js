// @ts-check
// The back office's Players and Dealers sections' words (简体中文 is made from the Traditional).

import { extend } from "../../i18n.js";

extend({
  "zh-Hant": {
    staff_players: "玩家", staff_dealers: "荷官",
    staff_search: "搜尋名稱", staff_search_go: "搜尋", staff_name: "名稱", staff_wallet: "錢包", staff_owed: "欠佣",
    staff_joined: "註冊時間", staff_state: "狀態", staff_active: "正常", staff_suspended: "已暫停",
    staff_suspend: "暫停", staff_reinstate: "恢復", staff_reason: "原因（選填）", staff_total: "共 {n} 位",
    staff_none: "沒有符合的帳戶", staff_done_suspended: "{name} 已暫停：其登入已全部結束", staff_done_reinstated: "{name} 已恢復",
    staff_tables: "負責賭桌", staff_new_dealer: "新增荷官", staff_password: "密碼", staff_create: "建立",
    staff_save_tables: "儲存賭桌", staff_created: "已建立荷官 {name}", staff_saved: "{name} 的賭桌已更新",
    staff_console: "荷官台", staff_no_tables: "未派桌", staff_history: "最近牌局",
    staff_min_bet: "最低注", staff_max_bet: "最高注", staff_betting_seconds: "下注秒數", staff_save_settings: "更改設定",
    staff_settings_saved: "{table} 的設定已更改：下一局起生效", staff_settings_invalid: "請輸入正數金額及秒數",
  },
  en: {
    staff_players: "Players", staff_dealers: "Dealers",
    staff_search: "Search by name", staff_search_go: "Search", staff_name: "Name", staff_wallet: "Wallet", staff_owed: "Commission owed",
    staff_joined: "Registered", staff_state: "State", staff_active: "Active", staff_suspended: "Suspended",
    staff_suspend: "Suspend", staff_reinstate: "Reinstate", staff_reason: "Reason (optional)", staff_total: "{n} in all",
    staff_none: "No account matches", staff_done_suspended: "{name} is suspended: every session has ended", staff_done_reinstated: "{name} is reinstated",
    staff_tables: "Tables", staff_new_dealer: "New dealer", staff_password: "Password", staff_create: "Create",
    staff_save_tables: "Save tables", staff_created: "Dealer {name} created", staff_saved: "{name}'s tables are saved",
    staff_console: "Console", staff_no_tables: "No table", staff_history: "Recent rounds",
    staff_min_bet: "Minimum", staff_max_bet: "Maximum", staff_betting_seconds: "Betting seconds", staff_save_settings: "Change settings",
    staff_settings_saved: "{table}'s settings changed: in force from the next round", staff_settings_invalid: "Enter positive amounts and seconds",
  },
});
