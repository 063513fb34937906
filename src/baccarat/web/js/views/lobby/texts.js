// @ts-check
// The words of the lobby's cards (简体中文 is made from the Traditional).

import { extend } from "../../i18n.js";

extend({
  "zh-Hant": { hands_n: "{n} 局" },
  en: { hands_n: "{n} hands" },
});
