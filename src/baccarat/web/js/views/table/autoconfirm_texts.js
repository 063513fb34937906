// @ts-check
// The words of the auto-confirm setting (简体中文 is made from the Traditional).

import { extend } from "../../i18n.js";

extend({
  "zh-Hant": {
    auto_confirm: "自動確認",
    auto_confirm_help: "停止下注前兩秒自動確認未確認的籌碼（不勾選：未確認的籌碼在停止下注時取消）",
    chips_warning_auto: "還有 {s} 秒：未確認的籌碼將在停止下注前自動確認",
  },
  en: {
    auto_confirm: "Auto-confirm",
    auto_confirm_help: "Confirm unconfirmed chips two seconds before betting closes (unticked: they are dropped when betting closes)",
    chips_warning_auto: "{s} s left: unconfirmed chips will be confirmed just before betting closes",
  },
});
