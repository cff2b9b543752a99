// low-time.js — the low-time warning: when the clock of your own awaited seat falls to
// LOW_TIME_SECONDS or below, its big clock turns to a warning (and says so in words) and the
// low-time sound plays, once per turn — a turn being known by its deadline, so the warning
// is not given again when the table is drawn again, only when a new turn runs low.

import { announce } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { playSound } from "./sounds.js";

export const LOW_TIME_SECONDS = 10;
let warnedFor = null; // the deadline of the last turn warned about

/** The clock `el` (of your own seat) reads `left` seconds: warn when it is low. */
export function watchLowTime(el, left) {
  const low = left <= LOW_TIME_SECONDS;
  el.classList.toggle("low-time", low);
  if (!low || warnedFor === el.dataset.deadline) return;
  warnedFor = el.dataset.deadline;
  playSound("low-time");
  announce(t("Under {seconds} seconds left for your move.", { seconds: LOW_TIME_SECONDS }), true);
}
