// @ts-check
// Texts of the page in Traditional Chinese (the default), Simplified Chinese (written from the
// Traditional texts by hans.js) and English, and the language switch.

import { toHans } from "./hans.js";

/** The page's languages. @typedef {"zh-Hant"|"zh-Hans"|"en"} Lang */
/** @type {Lang[]} */
export const LANGS = ["zh-Hant", "zh-Hans", "en"];

/** @type {Record<string, Record<string, string>>} */
const TEXTS = {
  "zh-Hant": {
    skip: "跳到內容", nav: "主選單", lobby: "大廳", fairness: "公平驗證", lab: "賠率實驗室", language: "語言",
    login_title: "登入或註冊", name: "名稱", password: "密碼", login: "登入", register: "註冊", logout: "登出",
    cancel: "取消", guest: "訪客", balance: "餘額", commission_owed: "欠佣",
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
    result: "結果", payout: "派彩", stake: "注額", outcome: "輸贏", commission: "佣金", returned: "返還", net: "淨輸贏",
    outcome_win: "贏", outcome_lose: "輸", outcome_push: "和（退回）", outcome_refund: "退款",
    roads: "路單", bead_plate: "珠盤路", big_road: "大路", big_eye_boy: "大眼仔", small_road: "小路", cockroach_pig: "曱甴路",
    ask_road: "問路", ask_banker: "莊問路", ask_player: "閒問路",
    shoe_stats: "牌靴統計", hands: "局數", pairs: "對子", banker_pair: "莊對", player_pair: "閒對",
    recent_rounds: "最近牌局", my_rounds: "我的牌局", recall: "牌局回顧", no_rounds: "暫無牌局",
    verify: "驗證", verify_round: "驗證此局", variant_switch: "切換玩法", switch_locked: "有未結算的注碼時不能切換玩法",
    squeeze: "咪牌", squeeze_help: "從牌邊往上拖，慢慢揭開（或按 ↑ 一點點咪，Enter 翻開）",
    reveal: "翻牌", back_to_lobby: "返回大廳", connecting: "連線中…", reconnecting: "重新連線中…", connected: "已連線",
    fairness_title: "公平驗證", fairness_intro: "輸入牌局編號：顯示牌靴的承諾值、已公開的伺服器種子、重新計算的牌靴，以及兩者是否一致。",
    round_id: "牌局編號", commitment: "承諾值 (SHA-256)", server_seed: "伺服器種子", client_seed: "客戶端種子",
    seed_hidden: "牌靴結束後才公開種子", recomputed: "重新計算的牌靴", verified: "驗證成功：牌局與種子相符",
    not_verified: "驗證失敗", sha_check: "種子的 SHA-256 與承諾值", match: "相符", mismatch: "不符",
    published_commitment: "牌靴開始前公布的承諾值", commitment_from_server: "以伺服器顯示的承諾值驗證（請貼上牌靴開始前公布的承諾值）",
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
    rule_squeeze: "咪牌 {s} 秒", rule_no_squeeze: "不咪牌", rule_commission_deducted: "贏時扣佣", rule_commission_owed: "佣金記入佣金箱",
    rule_tie_push: "和局退回莊閒注", rule_tie_stay: "和局莊閒注留枱", rule_banker_multiple: "莊注須為最低注的倍數",
    rule_exposure: "莊閒差額上限 {v}",
    seats: "座位", seat_n: "{n} 號座", seat_free: "空位", seat_mine: "你的座位", sit: "入座", stand: "站立下注",
    standing: "站立", not_at_table: "未在賭桌", leave_table: "離開賭桌", cash_out: "兌現",
    at_table: "賭桌上", wallet: "錢包", commission_box: "佣金箱", commission_on_leave: "離開或兌現時收取",
    sat_at: "已入座 {n} 號座", stood: "已站立下注", left_table: "已離開：返還 {amount}，收取佣金 {commission}",
    cashed_out: "已兌現 {amount}，收取佣金 {commission}",
    refused: "不接受", the_dealer: "荷官",
    pos_player_1: "閒家第一張牌", pos_player_2: "閒家第二張牌", pos_player_3: "閒家第三張牌",
    pos_banker_1: "莊家第一張牌", pos_banker_2: "莊家第二張牌", pos_banker_3: "莊家第三張牌",
    squeeze_yours: "輪到你咪{side}的牌：從牌邊往上拖", squeeze_other: "{who} 正在咪{side}的牌", squeeze_dealer: "荷官翻{side}的牌",
    squeeze_deadline: "{s} 秒後由荷官翻牌", hand_over: "交給荷官", handed_over: "已把咪牌交給荷官",
    other_tables: "其他賭桌", my_variant: "我的玩法", variant_switched: "已切換為{variant}", variant_need_seat: "先入座或站立下注才可切換玩法",
    buy_in_title: "帶多少籌碼上桌？", buy_in: "上桌金額", buy_in_hint: "錢包有 {wallet}；預設全數帶上（最少 {min}）",
    buy_in_invalid: "請輸入金額，最多兩位小數", buy_in_too_low: "最少要帶 {min}", buy_in_too_much: "錢包只有 {wallet}",
    buy_in_empty: "錢包沒有餘額", bring: "上桌",
    brand: "百家樂", double: "加倍", my_bets: "你的注碼", no_bets: "未下注",
    chips_warning: "還有 {s} 秒：未確認的籌碼將被取消，請按確認", chips_dropped: "停止下注：未確認的籌碼 {amount} 已取消",
    table_closed: "此賭桌已關閉，暫停開局", table_missing: "找不到賭桌「{id}」", reconnecting_in: "連線中斷，{s} 秒後重新連線…",
    you_win: "你贏 {amount}", you_lose: "你輸 {amount}", you_even: "你不輸不贏", pays_short: "{p}",
    // refusals, by their code (baccarat.error_codes); params fill the {placeholders}
    "refusal.amount.not_whole": "金額須為整數（以分為單位）",
    "refusal.amount.too_small": "金額最少為 {least}",
    "refusal.auth.forbidden": "你的身分不能執行此操作",
    "refusal.auth.invalid": "名稱或密碼錯誤，或登入已過期",
    "refusal.auth.rate_limited": "登入嘗試太多次，請稍後再試",
    "refusal.auth.required": "請先登入",
    "refusal.balance.insufficient": "賭桌上的可用餘額不足",
    "refusal.balance.insufficient.owed": "賭桌上的可用餘額不足（欠佣 {owed} 不能用作下注）",
    "refusal.bet.id_reused": "此注碼編號已用於另一注",
    "refusal.bet.invalid": "注項格式不正確（應為 注項=注額）",
    "refusal.bet.no_other_side": "只有莊或閒的注碼可以轉換",
    "refusal.bet.not_found": "找不到此注碼",
    "refusal.bet.not_on_menu": "{variant}不提供{bet}",
    "refusal.bet.not_placed": "你沒有{bet}的注碼",
    "refusal.bet.other_side_taken": "你已經有{other}的注碼",
    "refusal.bet.over_stake": "{bet}的注碼只有 {stake}",
    "refusal.bet.unknown": "不明注項 {bet}",
    "refusal.bets.open": "有未結算的注碼時不能離開賭桌",
    "refusal.betting.closed": "已停止下注",
    "refusal.betting.demo_coup": "示範局不接受下注",
    "refusal.bettor.already_at_table": "你已在這張賭桌",
    "refusal.bettor.invalid": "玩家名稱不能空白",
    "refusal.bettor.not_at_table": "你不在這張賭桌",
    "refusal.card.exhausted": "牌靴中的 {card} 已全部發出",
    "refusal.card.invalid": "不明的牌 {card}",
    "refusal.card.not_due": "現在不是發這張牌的時候",
    "refusal.card.required": "請輸入{position}",
    "refusal.card.none_to_correct": "本局尚未輸入牌，沒有可更正的牌",
    "refusal.burn.not_dealer_shoe": "此枱自行燒牌（或使用連續洗牌機）",
    "refusal.burn.not_now": "燒牌只在新牌靴開始、第一局之前進行一次",
    "refusal.burn.no_card": "此枱的燒牌方法不用翻牌",
    "refusal.burn.card_required": "請翻開第一張牌並輸入：按其點數燒牌",
    "refusal.account.suspended": "此帳戶已被暫停，請聯絡場方",
    "refusal.account.self_excluded": "你已自我禁止參與遊戲，直至所定時間為止",
    "refusal.limit.daily_loss": "這注會令今日輸額超過每日輸額上限 {limit}：今日已輸 {lost}，最多可再下注 {left}",
    "refusal.limits.loosen_by_house": "玩家只可收緊自己的限額；放寬限額請聯絡場方",
    "refusal.dealer.not_assigned": "荷官 {dealer} 未獲派到 {table} 枱",
    "refusal.dealer.not_found": "沒有名為 {name} 的荷官",
    "refusal.player.not_found": "沒有名為 {name} 的玩家",
    "refusal.table.not_dealer_paced": "{table} 枱按時自動開局，不由荷官開局",
    "refusal.card.same": "{position}已經是 {card}",
    "refusal.card.reveal_first": "請先翻開{side}的牌",
    "refusal.cash_out.insufficient": "可兌現的款項只有 {available}（欠佣 {owed}）",
    "refusal.cash_out.nothing": "沒有可兌現的款項",
    "refusal.clock.backwards": "時間不能倒退",
    "refusal.config.invalid": "賭桌設定不正確",
    "refusal.coup.not_finished": "這局還沒有完成",
    "refusal.coup.too_few_cards": "牌數不足以完成這局",
    "refusal.coup.voided": "這局已作廢",
    "refusal.cut_card.already_out": "切牌卡已在第 {coup} 局出現",
    "refusal.cut_card.automatic": "這張賭桌自行發牌，會自己記錄切牌卡",
    "refusal.cut_card.continuous": "連續洗牌機沒有切牌卡",
    "refusal.input.invalid": "輸入不正確",
    "refusal.lab.busy": "賠率實驗室忙碌中，請稍後再試",
    "refusal.limit.banker_multiple": "莊注須為最低注 {minimum} 的倍數",
    "refusal.limit.max": "注額高於最高限紅 {maximum}",
    "refusal.limit.min": "注額低於最低限紅 {minimum}",
    "refusal.limit.net_exposure": "賭桌的莊閒差額會超過上限 {limit}",
    "refusal.limit.refused": "注額超出限紅",
    "refusal.name.invalid": "名稱須為 {min}–{max} 個字：任何文字（如 張三）、數字或 _ . -",
    "refusal.name.reserved": "此名稱保留不用",
    "refusal.name.taken": "此名稱已被使用",
    "refusal.password.invalid": "密碼不符合要求",
    "refusal.paytable.invalid": "賠率表不正確",
    "refusal.paytable.unknown": "沒有此賠率表 {paytable}",
    "refusal.position.invalid": "不明的牌位 {position}",
    "refusal.procedure.not_now": "現在不能這樣做",
    "refusal.request.invalid": "請求內容不正確",
    "refusal.request.method_not_allowed": "此路徑不接受這種請求",
    "refusal.request.not_json": "請求不是 JSON",
    "refusal.request.not_found": "找不到此頁",
    "refusal.request.rate_limited": "請求太頻繁，請放慢",
    "refusal.request.too_large": "請求內容太大",
    "refusal.request.unknown_type": "不明的訊息類型",
    "refusal.round.finished": "此局已結束",
    "refusal.round.in_progress": "第 {round} 局仍在進行",
    "refusal.round.not_dealing": "現在沒有在發牌",
    "refusal.round.not_found": "找不到此牌局",
    "refusal.round.not_in_play": "此局不在進行中",
    "refusal.round.not_in_progress": "現在沒有進行中的牌局",
    "refusal.round.wrong_phase": "牌局現階段不能這樣做",
    "refusal.seat.already_yours": "你已坐在 {seat} 號座",
    "refusal.seat.bets_open": "有未結算的注碼時不能換座位",
    "refusal.seat.invalid": "沒有 {seat} 號座",
    "refusal.seat.no_standing": "此賭桌不設站立下注",
    "refusal.seat.taken": "{seat} 號座已有人",
    "refusal.server.error": "伺服器錯誤，請稍後再試",
    "refusal.shoe.continuous": "連續洗牌機沒有牌靴結束",
    "refusal.shoe.empty": "牌靴已沒有牌",
    "refusal.shoe.finished": "牌靴已完，剩下的牌不足一局",
    "refusal.shoe.invalid": "牌靴設定不正確",
    "refusal.shoe.not_in_play": "現在沒有使用中的牌靴",
    "refusal.shoe.not_pre_dealt": "只有預先發牌模式才有牌陣",
    "refusal.shoe.not_revealed": "牌靴結束後才公開種子，屆時才可驗證",
    "refusal.void.reason_required": "已有牌面朝上：作廢須說明原因",
    "refusal.entropy.limit": "下一靴已收滿你（或所有人）提供的隨機字串",
    "refusal.side.invalid": "不明的一方 {side}",
    "refusal.snapshot.format": "賭桌快照的格式版本不符",
    "refusal.snapshot.invalid": "賭桌快照無法讀取",
    "refusal.spot.invalid": "沒有 {spot} 號下注區",
    "refusal.spot.not_allowed": "你不能在 {spot} 號座的下注區下注",
    "refusal.squeeze.already_yours": "你已在咪{side}的牌",
    "refusal.squeeze.no_bet": "{bettor} 本局沒有下注",
    "refusal.squeeze.none_face_down": "沒有要翻的牌",
    "refusal.squeeze.not_yours": "{side}的牌由{holder}翻開",
    "refusal.squeeze.order": "請先翻{first}的牌",
    "refusal.squeeze.standing": "站立下注的玩家不能咪牌",
    "refusal.squeeze.time_left": "{holder} 還有 {seconds} 秒咪{side}的牌",
    "refusal.stake.invalid": "注額須為正整數",
    "refusal.table.no_server_shoe": "荷官輸入的賭桌沒有伺服器牌靴",
    "refusal.table.not_dealer_entry": "這張賭桌自行發牌，不接受輸入的牌",
    "refusal.table.not_found": "找不到此賭桌",
    "refusal.table.unavailable": "賭桌暫時無法使用，請稍後再試",
    "refusal.tie.not_permitted": "和局後留枱的注碼不可這樣更改",
    "refusal.variant.bets_open": "有未結算的注碼時不能切換玩法",
    "refusal.variant.invalid": "玩法設定不正確",
    "refusal.variant.not_offered": "此賭桌不提供{variant}",
    "refusal.variant.same": "你已經在玩{variant}",
    "refusal.variant.unknown": "不明的玩法 {variant}",
    "refusal.wallet.insufficient": "錢包只有 {wallet}，不能帶 {amount} 上桌",
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
    squeeze: "Squeeze", squeeze_help: "Drag up from the card's edge to peel it bit by bit (or ↑ to peel a little, Enter to reveal)",
    reveal: "Reveal", back_to_lobby: "Back to the lobby", connecting: "Connecting…", reconnecting: "Reconnecting…", connected: "Connected",
    fairness_title: "Fairness", fairness_intro: "Enter a round: the shoe's commitment, the revealed server seed, the shoe dealt again from it, and whether they match.",
    round_id: "Round id", commitment: "Commitment (SHA-256)", server_seed: "Server seed", client_seed: "Client seed",
    seed_hidden: "The seed is revealed when the shoe ends", recomputed: "Recomputed shoe", verified: "Verified: the round is what the seed deals",
    not_verified: "Not verified", sha_check: "SHA-256 of the seed against the commitment", match: "match", mismatch: "mismatch",
    published_commitment: "Commitment published before the shoe", commitment_from_server: "Checked against the commitment the server shows (paste the one published before the shoe)",
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
    refused: "Refused", the_dealer: "the dealer",
    pos_player_1: "Player's 1st card", pos_player_2: "Player's 2nd card", pos_player_3: "Player's 3rd card",
    pos_banker_1: "Banker's 1st card", pos_banker_2: "Banker's 2nd card", pos_banker_3: "Banker's 3rd card",
    squeeze_yours: "Your squeeze of {side}: drag up from a card's edge", squeeze_other: "{who} squeezes {side}", squeeze_dealer: "The dealer turns {side}",
    squeeze_deadline: "the dealer turns them in {s} s", hand_over: "Hand to the dealer", handed_over: "The squeeze is handed to the dealer",
    other_tables: "Other tables", my_variant: "My variant", variant_switched: "Now playing {variant}", variant_need_seat: "Sit or stand at the table to switch variant",
    buy_in_title: "How much do you bring to the table?", buy_in: "Buy-in", buy_in_hint: "Your wallet holds {wallet}; by default you bring all of it (at least {min})",
    buy_in_invalid: "Enter an amount with at most two decimals", buy_in_too_low: "Bring at least {min}", buy_in_too_much: "Your wallet holds only {wallet}",
    buy_in_empty: "Your wallet is empty", bring: "Bring",
    brand: "百家樂", double: "Double", my_bets: "Your bets", no_bets: "No bets",
    chips_warning: "{s} s left: unconfirmed chips will be dropped, press Confirm", chips_dropped: "Betting closed: your unconfirmed chips ({amount}) were dropped",
    table_closed: "This table is closed: no rounds for now", table_missing: "There is no table “{id}”", reconnecting_in: "Connection lost: reconnecting in {s} s…",
    you_win: "You win {amount}", you_lose: "You lose {amount}", you_even: "You break even", pays_short: "{p}",
    // refusals, by their code (baccarat.error_codes); params fill the {placeholders}
    "refusal.amount.not_whole": "The amount must be a whole number of cents",
    "refusal.amount.too_small": "The amount must be at least {least}",
    "refusal.auth.forbidden": "Your role does not allow this",
    "refusal.auth.invalid": "Wrong name or password, or your session has expired",
    "refusal.auth.rate_limited": "Too many log-in attempts: try again later",
    "refusal.auth.required": "Log in first",
    "refusal.balance.insufficient": "Not enough money available at the table",
    "refusal.balance.insufficient.owed": "Not enough money available at the table (the commission owed {owed} is held back)",
    "refusal.bet.id_reused": "This bet id was already used for another bet",
    "refusal.bet.invalid": "Write a bet as KIND=STAKE",
    "refusal.bet.no_other_side": "Only a Banker or Player bet can be switched",
    "refusal.bet.not_found": "No such bet",
    "refusal.bet.not_on_menu": "{variant} does not offer {bet}",
    "refusal.bet.not_placed": "You have no {bet} bet on the table",
    "refusal.bet.other_side_taken": "You already have a {other} bet",
    "refusal.bet.over_stake": "Your {bet} bet is only {stake}",
    "refusal.bet.unknown": "Unknown bet {bet}",
    "refusal.bets.open": "You cannot leave the table with a bet open",
    "refusal.betting.closed": "Betting is closed",
    "refusal.betting.demo_coup": "A demonstration coup takes no bets",
    "refusal.bettor.already_at_table": "You are already at this table",
    "refusal.bettor.invalid": "A bettor needs a name",
    "refusal.bettor.not_at_table": "You are not at this table",
    "refusal.card.exhausted": "Every {card} of this shoe is dealt already",
    "refusal.card.invalid": "Unknown card {card}",
    "refusal.card.not_due": "That card is not due now",
    "refusal.card.required": "Enter {position}",
    "refusal.card.none_to_correct": "No card of this coup has been entered: there is nothing to correct",
    "refusal.burn.not_dealer_shoe": "This table burns its own shoe (or shuffles continuously)",
    "refusal.burn.not_now": "The burn comes once, after a new shoe is put in play and before its first coup",
    "refusal.burn.no_card": "This table's burn method turns no card",
    "refusal.burn.card_required": "Turn the first card and enter it: its value is how many cards are burned",
    "refusal.account.suspended": "This account is suspended: ask the house",
    "refusal.account.self_excluded": "You have excluded yourself from play until the time you set",
    "refusal.limit.daily_loss": "This bet would take today's loss past your daily loss limit of {limit}: lost {lost} today, at most {left} more",
    "refusal.limits.loosen_by_house": "A player may only tighten their own limits: ask the house to loosen them",
    "refusal.dealer.not_assigned": "Dealer {dealer} is not assigned to table {table}",
    "refusal.dealer.not_found": "No dealer named {name}",
    "refusal.player.not_found": "No player named {name}",
    "refusal.table.not_dealer_paced": "Table {table} opens betting on its own timer, not the dealer's",
    "refusal.card.same": "{position} already holds {card}",
    "refusal.card.reveal_first": "{side}'s cards must be turned first",
    "refusal.cash_out.insufficient": "Only {available} can be cashed out (commission owed {owed})",
    "refusal.cash_out.nothing": "Nothing to cash out",
    "refusal.clock.backwards": "Table time never goes back",
    "refusal.config.invalid": "The table settings are not valid",
    "refusal.coup.not_finished": "The coup is not finished",
    "refusal.coup.too_few_cards": "Too few cards to finish the coup",
    "refusal.coup.voided": "This coup was voided",
    "refusal.cut_card.already_out": "The cut card already came out in coup {coup}",
    "refusal.cut_card.automatic": "This table deals its own shoe and sees the cut card itself",
    "refusal.cut_card.continuous": "A continuous shuffler has no cut card",
    "refusal.input.invalid": "The input is not valid",
    "refusal.lab.busy": "The odds lab is busy: try again in a moment",
    "refusal.limit.banker_multiple": "Banker bets must be a multiple of the minimum {minimum}",
    "refusal.limit.max": "The bet is above the table maximum {maximum}",
    "refusal.limit.min": "The bet is below the table minimum {minimum}",
    "refusal.limit.net_exposure": "The table's Banker/Player difference would exceed its limit {limit}",
    "refusal.limit.refused": "The stake breaks a table limit",
    "refusal.name.invalid": "A name is {min}–{max} letters of any script (such as 張三), digits, _ . or -",
    "refusal.name.reserved": "This name is reserved",
    "refusal.name.taken": "This name is taken",
    "refusal.password.invalid": "The password is not valid",
    "refusal.paytable.invalid": "The paytable is not valid",
    "refusal.paytable.unknown": "Unknown paytable {paytable}",
    "refusal.position.invalid": "Unknown card position {position}",
    "refusal.procedure.not_now": "Not possible now",
    "refusal.request.invalid": "The request is not valid",
    "refusal.request.method_not_allowed": "This path does not take that request",
    "refusal.request.not_json": "The request is not JSON",
    "refusal.request.not_found": "No such page",
    "refusal.request.rate_limited": "Too many requests: slow down",
    "refusal.request.too_large": "The request is too large",
    "refusal.request.unknown_type": "Unknown message type",
    "refusal.round.finished": "This round is already over",
    "refusal.round.in_progress": "Round {round} is still in progress",
    "refusal.round.not_dealing": "No coup is being dealt",
    "refusal.round.not_found": "No such round",
    "refusal.round.not_in_play": "This round is not in play",
    "refusal.round.not_in_progress": "No round is in progress",
    "refusal.round.wrong_phase": "Not possible at this point of the round",
    "refusal.seat.already_yours": "You already sit at seat {seat}",
    "refusal.seat.bets_open": "You cannot change seats with a bet open",
    "refusal.seat.invalid": "There is no seat {seat}",
    "refusal.seat.no_standing": "This table takes no standing bettors",
    "refusal.seat.taken": "Seat {seat} is taken",
    "refusal.server.error": "Server error: try again later",
    "refusal.shoe.continuous": "A continuous shuffler has no end of shoe",
    "refusal.shoe.empty": "The shoe is empty",
    "refusal.shoe.finished": "The shoe is finished: not enough cards for a coup",
    "refusal.shoe.invalid": "The shoe settings are not valid",
    "refusal.shoe.not_in_play": "No shoe is in play",
    "refusal.shoe.not_pre_dealt": "The layout exists only in pre-dealt mode",
    "refusal.shoe.not_revealed": "The seed is revealed when the shoe ends: verify then",
    "refusal.void.reason_required": "Cards are face up: say why the round is voided",
    "refusal.entropy.limit": "The next shoe takes no more entropy from you (or from anyone)",
    "refusal.side.invalid": "Unknown side {side}",
    "refusal.snapshot.format": "The table snapshot is of another format",
    "refusal.snapshot.invalid": "The table snapshot cannot be read",
    "refusal.spot.invalid": "There is no spot {spot}",
    "refusal.spot.not_allowed": "You may not bet on seat {spot}'s spot",
    "refusal.squeeze.already_yours": "You already squeeze {side}'s cards",
    "refusal.squeeze.no_bet": "{bettor} has no bet in this round",
    "refusal.squeeze.none_face_down": "No card waits to be turned",
    "refusal.squeeze.not_yours": "{side}'s cards are turned by {holder}",
    "refusal.squeeze.order": "{first}'s cards are turned first",
    "refusal.squeeze.standing": "Standing bettors never squeeze",
    "refusal.squeeze.time_left": "{holder} squeezes {side}'s cards for {seconds} s more",
    "refusal.stake.invalid": "A stake is a positive whole number",
    "refusal.table.no_server_shoe": "A dealer-entry table has no server shoe",
    "refusal.table.not_dealer_entry": "This table deals its own cards and takes no entered card",
    "refusal.table.not_found": "No such table",
    "refusal.table.unavailable": "The table is not available right now: try again in a moment",
    "refusal.tie.not_permitted": "This house does not let you change a bet kept after a tie that way",
    "refusal.variant.bets_open": "You cannot switch variant with an open bet",
    "refusal.variant.invalid": "The variant is not valid",
    "refusal.variant.not_offered": "This table does not play {variant}",
    "refusal.variant.same": "You already play {variant}",
    "refusal.variant.unknown": "Unknown variant {variant}",
    "refusal.wallet.insufficient": "Your wallet holds only {wallet}: you cannot bring {amount}",
  },
};

TEXTS["zh-Hans"] = Object.fromEntries(Object.entries(TEXTS["zh-Hant"]).map(([key, text]) => [key, toHans(text)]));

/**
 * Add a view's own texts (written in 繁體中文 and English; 简体中文 is made from the Traditional),
 * so each page keeps its words beside its code. A key already taken is an error: two views would
 * otherwise overwrite each other's words.
 * @param {{"zh-Hant": Record<string, string>, en: Record<string, string>}} texts
 */
export function extend(texts) {
  const hant = Object.keys(texts["zh-Hant"]).sort();
  const en = Object.keys(texts.en).sort();
  if (hant.join() !== en.join()) throw new Error(`texts without a translation: ${hant.filter((k) => !en.includes(k)).concat(en.filter((k) => !hant.includes(k)))}`);
  const taken = hant.filter((key) => key in TEXTS.en);
  if (taken.length) throw new Error(`texts already defined: ${taken.join(", ")}`);
  Object.assign(TEXTS["zh-Hant"], texts["zh-Hant"]);
  Object.assign(TEXTS.en, texts.en);
  for (const [key, text] of Object.entries(texts["zh-Hant"])) TEXTS["zh-Hans"][key] = toHans(text);
}

const KEY = "baccarat.lang";
/** @type {Set<(value: string) => void>} */
const listeners = new Set();

/** The stored choice, where the page can store one. */
function stored() {
  try {
    return typeof localStorage === "undefined" ? null : localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

/** The language a browser's language tag asks for ("zh-CN" → zh-Hans, "zh-TW" → zh-Hant), or null. @param {string} tag @returns {Lang|null} */
export function langOf(tag) {
  if (/^zh[-_](hans|cn|sg|my)\b/i.test(tag)) return "zh-Hans";
  if (/^zh/i.test(tag)) return "zh-Hant";
  if (/^en/i.test(tag)) return "en";
  return null;
}

/** @returns {Lang} */
function initial() {
  const saved = stored();
  if (saved && saved in TEXTS) return /** @type {Lang} */ (saved);
  const nav = typeof navigator === "undefined" ? null : navigator;
  const wanted = nav && nav.languages && nav.languages.length ? nav.languages : [(nav && nav.language) || "zh-Hant"];
  for (const tag of wanted) {
    const found = langOf(tag);
    if (found) return found;
  }
  return "zh-Hant";
}

/** @type {Lang} */
let current = initial();

/** The language in use: "zh-Hant", "zh-Hans" or "en". */
export function lang() {
  return current;
}

/** Whether the page speaks Chinese (either script). */
export function isChinese() {
  return current !== "en";
}

/** A Chinese text (written in Traditional characters) in the page's script. @param {string} text */
export function chinese(text) {
  return current === "zh-Hans" ? toHans(text) : text;
}

/**
 * A text in the current language, with {name} placeholders filled in.
 * @param {string} key @param {Record<string, unknown>} [params]
 */
export function t(key, params = {}) {
  const text = TEXTS[current][key] ?? TEXTS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

/** Whether a language (default: the current one) has a text of its own for key. @param {string} key @param {string} [language] */
export function hasText(key, language = current) {
  return Object.prototype.hasOwnProperty.call(TEXTS[language] || {}, key);
}

/** Every text key of a language (for the tests: each language has the same keys). @param {string} language */
export function keys(language) {
  return Object.keys(TEXTS[language] || {});
}

/** A bet's name in the current language (from the server's English and Chinese names). @param {any} bet */
export function betName(bet) {
  if (current === "en") return bet.english || bet.name || bet.chinese;
  return chinese(bet.chinese || bet.name_zh || bet.english);
}

/** Paying levels' names (the paytables name them in English) in 繁體中文. @type {[RegExp, (n: string) => string][]} */
const LEVELS_ZH = [
  [/^natural$/, () => "天牌"],
  [/^win$/, () => "贏"],
  [/^tie$/, () => "和"],
  [/^pair$/, () => "對子"],
  [/^win by (\d)$/, (n) => `贏${n}點`],
  [/^win with (\d)$/, (n) => `${n}點贏`],
  [/^two-card (\d)$/, (n) => `兩張牌${n}點`],
  [/^three-card (\d)$/, (n) => `三張牌${n}點`],
];

/** A paying level's name in the current language; names it does not know stay as written. @param {string} name */
export function levelName(name) {
  if (current === "en") return name;
  for (const [pattern, render] of LEVELS_ZH) {
    const match = pattern.exec(name);
    if (match) return chinese(render(match[1]));
  }
  return name;
}

/** Fill every [data-i18n] (text) and [data-i18n-aria] (aria-label) under root. @param {ParentNode} [root] */
export function translate(root = document) {
  document.documentElement.lang = current;
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(/** @type {HTMLElement} */ (el).dataset.i18n || "");
  for (const el of root.querySelectorAll("[data-i18n-aria]")) el.setAttribute("aria-label", t(/** @type {HTMLElement} */ (el).dataset.i18nAria || ""));
}

/** Switch the language, remember it, and tell the listeners. @param {string} value */
export function setLang(value) {
  if (!(value in TEXTS) || value === current) return;
  current = /** @type {Lang} */ (value);
  try {
    if (typeof localStorage !== "undefined") localStorage.setItem(KEY, value);
  } catch {
    // a page that cannot store the choice still switches
  }
  if (typeof document !== "undefined") translate();
  for (const listener of listeners) listener(value);
}

/** Call fn after every language switch. @param {(value: string) => void} fn */
export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
