// @ts-check
// The words of the bet spots (简体中文 is made from the Traditional).

import { extend } from "../../i18n.js";

extend({
  "zh-Hant": { pays_up_to: "最高 {p}" },
  en: { pays_up_to: "up to {p}" },
});
