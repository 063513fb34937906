// @ts-check
// The words of the table's cues and its sound switch (简体中文 is made from the Traditional).

import { extend } from "../../i18n.js";

extend({
  "zh-Hant": {
    cue_open: "請下注",
    cue_closed: "停止下注",
    sound_on: "聲音開", sound_off: "聲音關",
    sound_help: "開啟或關閉聲音：開局、停止下注、最後五秒、開牌與贏錢的提示音",
  },
  en: {
    cue_open: "Place your bets",
    cue_closed: "No more bets",
    sound_on: "Sound on", sound_off: "Sound off",
    sound_help: "Turn the sounds on or off: bets open, no more bets, the last five seconds, each card and a win",
  },
});
