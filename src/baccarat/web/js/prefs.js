// @ts-check
// A player's on/off settings, remembered in this browser (localStorage): the sound, auto-confirm.
// Where there is no storage (private mode, Node) a setting is off and a choice lasts for the page.

/** Whether the setting `key` is on. @param {string} key */
export function flagOn(key) {
  try {
    return typeof localStorage !== "undefined" && localStorage.getItem(key) === "on";
  } catch {
    return false;
  }
}

/** Remember the setting `key`. @param {string} key @param {boolean} on */
export function setFlag(key, on) {
  try {
    localStorage.setItem(key, on ? "on" : "off");
  } catch {
    // private mode without storage: the choice lasts for the page
  }
}
