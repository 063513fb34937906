// @ts-check
// Names of the variants in both languages.

import { chinese, lang } from "./i18n.js";

const NAMES = {
  macau: ["Macau", "澳門百家樂"],
  standard: ["Standard", "標準百家樂"],
  no_commission: ["No Commission", "免佣百家樂"],
  western: ["Western", "西式百家樂"],
  ez: ["EZ Baccarat", "EZ百家樂"],
};

/** A variant's name in the current language. */
export function variantName(name) {
  const pair = NAMES[name];
  if (!pair) return name;
  return lang() === "en" ? pair[0] : chinese(pair[1]);
}

/** Every variant the page knows. */
export const VARIANTS = Object.keys(NAMES);
