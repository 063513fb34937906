// @ts-check
// 简体中文 from 繁體中文: the page's Traditional texts (and the server's Chinese bet names) written in
// Simplified characters, with the few words that differ between the two (伺服器 → 服务器…).

/** Words written differently in Simplified Chinese, replaced before the characters. */
const WORDS = [
  ["伺服器", "服务器"],
  ["載入", "加载"],
  ["連線", "连接"],
  ["訊息", "消息"],
  ["預設", "默认"],
  ["程式", "程序"],
];

/** Traditional characters and, at the same index, their Simplified forms. */
const TRADITIONAL =
  "個優兌內兩冊則動勢區問單嘗執塊實寫對屆帶幾廢廳張後徑態應戶換擬敗數於時暫會枱樂標樣機沒淨準為無爾狀現產發盤確碼種稱節範籌" +
  "紅終結給統經線編總續羅與莊號複規計訊記訪設註試該認語誤請諾證讀貝賠賭贏載輪輸轉這連進過達選還錄錢錯長門閉開閒間關陣階際離" +
  "頁項須預頻額類顧顯餘馬驗點龍紀環歷麼裡讓當頭們雙僅啟匯壓廣彈戲揮權滿澤燈獎畫瑪簡聽腦薦處誰負費質蹤車軟輕辦鐘鬥齊勝補視覽" +
  "觀護資辭邊鄰醫釋鎖閱隨險雜雞難電靜響頂順領題風飛養驅體髮鬆魚鳥麗龜術專將師歸豐極樹構氣滅灣熱爭獨瓊營禮穩窮競筆築糧約級純" +
  "紙細組織網緊練縮聯職臉興舊艱藝蘭蟲衛裝褲觸說課調談論識譯變讚豬貓貨販責買貸賣賬贈趕躍軍輛輯農運遠適遲遺郵鄉釘針銀銷鋪錶鍵" +
  "鏡鐵閃閥闖陰陽隊隱雲韓顏願颱飯飲飽館駕騎驚鬧鹽黃齒" +
  "貼斷燒並帳絡場參遊寬獲員從蓋儲尋復" +
  "綠擇見測賺條圓橫聲";
const SIMPLIFIED =
  "个优兑内两册则动势区问单尝执块实写对届带几废厅张后径态应户换拟败数于时暂会台乐标样机没净准为无尔状现产发盘确码种称节范筹" +
  "红终结给统经线编总续罗与庄号复规计讯记访设注试该认语误请诺证读贝赔赌赢载轮输转这连进过达选还录钱错长门闭开闲间关阵阶际离" +
  "页项须预频额类顾显余马验点龙纪环历么里让当头们双仅启汇压广弹戏挥权满泽灯奖画玛简听脑荐处谁负费质踪车软轻办钟斗齐胜补视览" +
  "观护资辞边邻医释锁阅随险杂鸡难电静响顶顺领题风飞养驱体发松鱼鸟丽龟术专将师归丰极树构气灭湾热争独琼营礼稳穷竞笔筑粮约级纯" +
  "纸细组织网紧练缩联职脸兴旧艰艺兰虫卫装裤触说课调谈论识译变赞猪猫货贩责买贷卖账赠赶跃军辆辑农运远适迟遗邮乡钉针银销铺表键" +
  "镜铁闪阀闯阴阳队隐云韩颜愿台饭饮饱馆驾骑惊闹盐黄齿" +
  "贴断烧并账络场参游宽获员从盖储寻复" +
  "绿择见测赚条圆横声";

/** @type {Map<string, string>} */
const CHARS = new Map(Array.from(TRADITIONAL, (c, i) => [c, SIMPLIFIED[i]]));

/**
 * A Traditional Chinese text in Simplified characters: toHans("莊家贏") → "庄家赢". Characters with
 * one form in both, Latin letters, digits and {placeholders} stay as they are.
 * @param {string} text
 * @returns {string}
 */
export function toHans(text) {
  let out = String(text);
  for (const [from, to] of WORDS) out = out.split(from).join(to);
  return Array.from(out, (c) => CHARS.get(c) ?? c).join("");
}

/** How many characters the table converts (both strings have one character per index). */
export const CONVERTED = CHARS.size;
