// Texts of the page in Traditional Chinese (the default) and English, and the language switch.

const TEXTS = {
  "zh-Hant": {
    skip: "跳到內容", nav: "主選單", lobby: "大廳", fairness: "公平驗證", lab: "賠率實驗室", language: "語言",
    login_title: "登入或註冊", name: "名稱", password: "密碼", login: "登入", register: "註冊", logout: "登出",
    cancel: "取消", guest: "訪客", balance: "餘額", commission_owed: "抽水（欠款）",
    tables: "賭桌", variant: "玩法", limits: "限紅", dealing: "發牌方式", decks: "副牌", status: "狀態",
    players: "玩家人數", bets_this_round: "本局注數", join: "入座", open: "開放", closed: "關閉",
    dealing_shoe: "牌靴", dealing_continuous: "連續洗牌機", dealing_pre_dealt: "預先發牌", dealing_dealer_entry: "荷官輸入",
    round: "局", round_n: "第 {n} 局", shoe_n: "第 {n} 靴",
    phase_betting: "請下注", phase_closed: "停止下注", phase_settled: "已結算", phase_voided: "本局作廢", phase_waiting: "等候開局",
    seconds_left: "剩餘 {s} 秒", countdown: "倒數",
    chips: "籌碼", chip_value: "籌碼 {v}", bet_spots: "下注區", pays: "賠率 {p}", pays_levels: "賠率",
    place: "下注", undo: "撤回", clear: "清除", rebet: "重複下注", confirm: "確認",
    pending: "未確認", confirmed: "已確認", total_bet: "總注額",
    need_login: "請先登入才可下注", betting_closed: "已停止下注", bet_confirmed: "下注已確認",
    player: "閒", banker: "莊", tie: "和", player_side: "閒家", banker_side: "莊家",
    win_player: "閒贏", win_banker: "莊贏", win_tie: "和局", natural: "天牌",
    result: "結果", payout: "派彩", stake: "注額", outcome: "輸贏", commission: "抽水", returned: "返還", net: "淨輸贏",
    outcome_win: "贏", outcome_lose: "輸", outcome_push: "和（退回）", outcome_refund: "退款",
    roads: "路單", bead_plate: "珠盤路", big_road: "大路", big_eye_boy: "大眼仔", small_road: "小路", cockroach_pig: "曱甴路",
    ask_road: "問路", ask_banker: "莊問路", ask_player: "閒問路",
    shoe_stats: "牌靴統計", hands: "局數", pairs: "對子", banker_pair: "莊對", player_pair: "閒對",
    recent_rounds: "最近牌局", my_rounds: "我的牌局", recall: "牌局回顧", no_rounds: "暫無牌局",
    verify: "驗證", verify_round: "驗證此局", variant_switch: "切換玩法", switch_locked: "有未結算的注碼時不能切換玩法",
    squeeze: "咪牌", squeeze_help: "拖動牌角咪牌，或按 Enter 翻開",
    reveal: "翻牌", back_to_lobby: "返回大廳", connecting: "連線中…", reconnecting: "重新連線中…", connected: "已連線",
    fairness_title: "公平驗證", fairness_intro: "輸入牌局編號：顯示牌靴的承諾值、已公開的伺服器種子、重新計算的牌靴，以及兩者是否一致。",
    round_id: "牌局編號", commitment: "承諾值 (SHA-256)", server_seed: "伺服器種子", client_seed: "客戶端種子",
    seed_hidden: "牌靴結束後才公開種子", recomputed: "重新計算的牌靴", verified: "驗證成功：牌局與種子相符",
    not_verified: "驗證失敗", sha_check: "種子的 SHA-256 與承諾值", match: "相符", mismatch: "不符",
    coup_in_shoe: "牌靴中的第幾局", cards: "牌", this_round: "此局",
    lab_title: "賠率實驗室", par_sheet: "賠率表", paytable: "賠率表", any_paytable: "（依玩法）",
    remove_cards: "移除的牌", remove_hint: "例如 5S K（只寫點數＝移除該點數的一張）", compute: "計算",
    bet: "注項", win: "贏", push: "和", lose: "輸", ev: "期望值", house_edge: "莊家優勢", std_dev: "標準差",
    outcomes: "結果機率", probability: "機率", simulation: "模擬", strategy: "投注策略", staking: "注碼法", target: "目標",
    shoes: "牌靴數", session_shoes: "每節牌靴", bankroll: "本金", unit: "基本注碼", seed: "種子", run: "執行",
    chart_title: "本金走勢（{n} 節，每點 {h} 局）", median: "中位數", percentile_band: "10%–90% 區間",
    risk_of_ruin: "破產機率", final_bankroll: "最終本金（平均）", edge_realised: "實際莊家優勢", wagered: "總投注",
    busy: "計算中…", error: "錯誤", cards_in_shoe: "牌數 {n}",
    staking_flat: "平注", staking_martingale: "馬丁格爾（輸加倍）", staking_paroli: "帕羅利（贏加倍）",
    staking_fibonacci: "斐波那契", staking_dalembert: "達朗貝爾", staking_1326: "1-3-2-6",
    target_banker: "莊", target_player: "閒", target_streak: "跟長龍", target_chop: "跟單跳", target_pattern: "路型",
    face_down: "未翻開的牌", loading: "載入中…", not_found: "找不到此頁", logged_in_as: "已登入：{name}",
    rules: "規則", rule_seats: "{n} 個座位", rule_standing: "可站立下注", rule_no_standing: "只限入座",
    rule_squeeze: "咪牌 {s} 秒", rule_no_squeeze: "不咪牌", rule_commission_deducted: "贏時扣佣", rule_commission_owed: "抽水記入佣金箱",
    rule_tie_push: "和局退回莊閒注", rule_tie_stay: "和局莊閒注留枱", rule_banker_multiple: "莊注須為最低注的倍數",
    rule_exposure: "莊閒差額上限 {v}",
    seats: "座位", seat_n: "{n} 號座", seat_free: "空位", seat_mine: "你的座位", sit: "入座", stand: "站立下注",
    standing: "站立", not_at_table: "未在賭桌", leave_table: "離開賭桌", cash_out: "兌現",
    at_table: "賭桌上", wallet: "錢包", commission_box: "佣金箱", commission_on_leave: "離開或兌現時收取",
    sat_at: "已入座 {n} 號座", stood: "已站立下注", left_table: "已離開：返還 {amount}，收取抽水 {commission}",
    cashed_out: "已兌現 {amount}，收取抽水 {commission}",
    refused: "不接受", refuse_min: "注額低於最低限紅 {v}", refuse_max: "注額高於最高限紅 {v}",
    refuse_multiple: "莊注須為最低注 {v} 的倍數", refuse_exposure: "賭桌的莊閒差額會超過上限 {v}",
    refuse_funds: "賭桌上的可用餘額不足", refuse_funds_owed: "賭桌上的可用餘額不足（欠佣 {v} 不能用作下注）",
    refuse_nothing: "沒有可兌現的款項", refuse_seat_taken: "{n} 號座已有人", refuse_open_bet: "有未結算的注碼時不能這樣做",
    refuse_no_standing: "此賭桌不設站立下注", refuse_not_at_table: "你不在這張賭桌", refuse_closed: "已停止下注",
    squeeze_yours: "輪到你咪{side}的牌：拖動牌角", squeeze_other: "{who} 正在咪{side}的牌", squeeze_dealer: "荷官翻{side}的牌",
    squeeze_deadline: "{s} 秒後由荷官翻牌", hand_over: "交給荷官", handed_over: "已把咪牌交給荷官",
    other_tables: "其他賭桌", my_variant: "我的玩法", variant_switched: "已切換為{variant}", variant_need_seat: "先入座或站立下注才可切換玩法",
    buy_in_title: "帶多少籌碼上桌？", buy_in: "上桌金額", buy_in_hint: "錢包有 {wallet}；預設全數帶上（最少 {min}）",
    buy_in_invalid: "請輸入金額，最多兩位小數", buy_in_too_low: "最少要帶 {min}", buy_in_too_much: "錢包只有 {wallet}",
    buy_in_empty: "錢包沒有餘額", bring: "上桌",
  },
  en: {
    skip: "Skip to content", nav: "Main menu", lobby: "Lobby", fairness: "Fairness", lab: "Odds lab", language: "Language",
    login_title: "Log in or register", name: "Name", password: "Password", login: "Log in", register: "Register", logout: "Log out",
    cancel: "Cancel", guest: "Guest", balance: "Balance", commission_owed: "Commission owed",
    tables: "Tables", variant: "Variant", limits: "Limits", dealing: "Dealing", decks: "Decks", status: "Status",
    players: "Players", bets_this_round: "Bets this round", join: "Join", open: "Open", closed: "Closed",
    dealing_shoe: "Shoe", dealing_continuous: "Continuous shuffler", dealing_pre_dealt: "Pre-dealt", dealing_dealer_entry: "Dealer entry",
    round: "Round", round_n: "Round {n}", shoe_n: "Shoe {n}",
    phase_betting: "Place your bets", phase_closed: "No more bets", phase_settled: "Settled", phase_voided: "Round voided", phase_waiting: "Waiting for a round",
    seconds_left: "{s} s left", countdown: "Countdown",
    chips: "Chips", chip_value: "Chip {v}", bet_spots: "Bet spots", pays: "Pays {p}", pays_levels: "Pays",
    place: "Place", undo: "Undo", clear: "Clear", rebet: "Rebet", confirm: "Confirm",
    pending: "Pending", confirmed: "Confirmed", total_bet: "Total bet",
    need_login: "Log in to bet", betting_closed: "Betting is closed", bet_confirmed: "Bets confirmed",
    player: "Player", banker: "Banker", tie: "Tie", player_side: "Player", banker_side: "Banker",
    win_player: "Player wins", win_banker: "Banker wins", win_tie: "Tie", natural: "Natural",
    result: "Result", payout: "Payout", stake: "Stake", outcome: "Outcome", commission: "Commission", returned: "Returned", net: "Net",
    outcome_win: "Win", outcome_lose: "Lose", outcome_push: "Push", outcome_refund: "Refund",
    roads: "Roads", bead_plate: "Bead Plate", big_road: "Big Road", big_eye_boy: "Big Eye Boy", small_road: "Small Road", cockroach_pig: "Cockroach Pig",
    ask_road: "Ask road", ask_banker: "If Banker", ask_player: "If Player",
    shoe_stats: "Shoe statistics", hands: "Hands", pairs: "Pairs", banker_pair: "Banker Pair", player_pair: "Player Pair",
    recent_rounds: "Recent rounds", my_rounds: "My rounds", recall: "Round recall", no_rounds: "No rounds yet",
    verify: "Verify", verify_round: "Verify this round", variant_switch: "Switch variant", switch_locked: "You cannot switch variant with an open bet",
    squeeze: "Squeeze", squeeze_help: "Drag a card's corner to peel it, or press Enter to reveal",
    reveal: "Reveal", back_to_lobby: "Back to the lobby", connecting: "Connecting…", reconnecting: "Reconnecting…", connected: "Connected",
    fairness_title: "Fairness", fairness_intro: "Enter a round: the shoe's commitment, the revealed server seed, the shoe dealt again from it, and whether they match.",
    round_id: "Round id", commitment: "Commitment (SHA-256)", server_seed: "Server seed", client_seed: "Client seed",
    seed_hidden: "The seed is revealed when the shoe ends", recomputed: "Recomputed shoe", verified: "Verified: the round is what the seed deals",
    not_verified: "Not verified", sha_check: "SHA-256 of the seed against the commitment", match: "match", mismatch: "mismatch",
    coup_in_shoe: "Coup in shoe", cards: "Cards", this_round: "this round",
    lab_title: "Odds lab", par_sheet: "Par sheet", paytable: "Paytable", any_paytable: "(the variant's)",
    remove_cards: "Cards removed", remove_hint: "e.g. 5S K (a bare rank removes one card of that rank)", compute: "Compute",
    bet: "Bet", win: "Win", push: "Push", lose: "Lose", ev: "EV", house_edge: "House edge", std_dev: "Std dev",
    outcomes: "Outcomes", probability: "Probability", simulation: "Simulation", strategy: "Strategy", staking: "Staking", target: "Target",
    shoes: "Shoes", session_shoes: "Shoes per session", bankroll: "Bankroll", unit: "Unit", seed: "Seed", run: "Run",
    chart_title: "Bankroll ({n} sessions, {h} hands a point)", median: "Median", percentile_band: "10%–90% band",
    risk_of_ruin: "Risk of ruin", final_bankroll: "Final bankroll (mean)", edge_realised: "House edge realised", wagered: "Wagered",
    busy: "Working…", error: "Error", cards_in_shoe: "{n} cards",
    staking_flat: "Flat", staking_martingale: "Martingale", staking_paroli: "Paroli",
    staking_fibonacci: "Fibonacci", staking_dalembert: "D'Alembert", staking_1326: "1-3-2-6",
    target_banker: "Banker", target_player: "Player", target_streak: "Follow the streak", target_chop: "Follow the chop", target_pattern: "Pattern",
    face_down: "Face-down card", loading: "Loading…", not_found: "No such page", logged_in_as: "Logged in as {name}",
    rules: "Rules", rule_seats: "{n} seats", rule_standing: "standing bettors", rule_no_standing: "seated only",
    rule_squeeze: "squeeze {s} s", rule_no_squeeze: "no squeeze", rule_commission_deducted: "commission deducted", rule_commission_owed: "commission box",
    rule_tie_push: "tie: Banker/Player push", rule_tie_stay: "tie: Banker/Player stay", rule_banker_multiple: "Banker in multiples of the minimum",
    rule_exposure: "Banker/Player limit {v}",
    seats: "Seats", seat_n: "Seat {n}", seat_free: "free", seat_mine: "your seat", sit: "Sit", stand: "Stand",
    standing: "Standing", not_at_table: "Not at the table", leave_table: "Leave table", cash_out: "Cash out",
    at_table: "At the table", wallet: "Wallet", commission_box: "Commission box", commission_on_leave: "collected when you leave or cash out",
    sat_at: "Seated at seat {n}", stood: "Standing at the table", left_table: "Left the table: {amount} back, commission {commission} collected",
    cashed_out: "Cashed out {amount}, commission {commission} collected",
    refused: "Refused", refuse_min: "The bet is below the table minimum {v}", refuse_max: "The bet is above the table maximum {v}",
    refuse_multiple: "Banker bets must be a multiple of the minimum {v}", refuse_exposure: "The table's Banker/Player difference would exceed its limit {v}",
    refuse_funds: "Not enough money available at the table", refuse_funds_owed: "Not enough money available at the table (the commission owed {v} is held back)",
    refuse_nothing: "Nothing to cash out", refuse_seat_taken: "Seat {n} is taken", refuse_open_bet: "Not possible with a bet open",
    refuse_no_standing: "This table takes no standing bettors", refuse_not_at_table: "You are not at this table", refuse_closed: "Betting is closed",
    squeeze_yours: "Your squeeze of {side}: drag a card's corner", squeeze_other: "{who} squeezes {side}", squeeze_dealer: "The dealer turns {side}",
    squeeze_deadline: "the dealer turns them in {s} s", hand_over: "Hand to the dealer", handed_over: "The squeeze is handed to the dealer",
    other_tables: "Other tables", my_variant: "My variant", variant_switched: "Now playing {variant}", variant_need_seat: "Sit or stand at the table to switch variant",
    buy_in_title: "How much do you bring to the table?", buy_in: "Buy-in", buy_in_hint: "Your wallet holds {wallet}; by default you bring all of it (at least {min})",
    buy_in_invalid: "Enter an amount with at most two decimals", buy_in_too_low: "Bring at least {min}", buy_in_too_much: "Your wallet holds only {wallet}",
    buy_in_empty: "Your wallet is empty", bring: "Bring",
  },
};

const KEY = "baccarat.lang";
const listeners = new Set();

function initial() {
  const saved = localStorage.getItem(KEY);
  if (saved && saved in TEXTS) return saved;
  const wanted = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "zh-Hant"];
  for (const tag of wanted) {
    if (/^zh/i.test(tag)) return "zh-Hant";
    if (/^en/i.test(tag)) return "en";
  }
  return "zh-Hant";
}

let current = initial();

/** The language in use: "zh-Hant" or "en". */
export function lang() {
  return current;
}

/** A text in the current language, with {name} placeholders filled in. */
export function t(key, params = {}) {
  const text = TEXTS[current][key] ?? TEXTS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

/** A bet's name in the current language (from the server's English and Chinese names). */
export function betName(bet) {
  return current === "zh-Hant" ? bet.chinese || bet.name_zh || bet.english : bet.english || bet.name || bet.chinese;
}

/** Paying levels' names (the paytables name them in English) in 繁體中文. */
const LEVELS_ZH = [
  [/^natural$/, () => "例牌"],
  [/^win$/, () => "贏"],
  [/^tie$/, () => "和"],
  [/^pair$/, () => "對子"],
  [/^win by (\d)$/, (n) => `贏${n}點`],
  [/^win with (\d)$/, (n) => `${n}點贏`],
  [/^two-card (\d)$/, (n) => `兩張牌${n}點`],
  [/^three-card (\d)$/, (n) => `三張牌${n}點`],
];

/** A paying level's name in the current language; names it does not know stay as written. */
export function levelName(name) {
  if (current !== "zh-Hant") return name;
  for (const [pattern, render] of LEVELS_ZH) {
    const match = pattern.exec(name);
    if (match) return render(match[1]);
  }
  return name;
}

/** Fill every [data-i18n] (text) and [data-i18n-aria] (aria-label) under root. */
export function translate(root = document) {
  document.documentElement.lang = current;
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-aria]")) el.setAttribute("aria-label", t(el.dataset.i18nAria));
}

/** Switch the language, remember it, and tell the listeners. */
export function setLang(value) {
  if (!(value in TEXTS) || value === current) return;
  current = value;
  localStorage.setItem(KEY, value);
  translate();
  for (const listener of listeners) listener(value);
}

/** Call fn after every language switch. */
export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
