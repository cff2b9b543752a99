// live.js — what a screen reader hears of the table talk, without a flood: the first new
// line is read at once; lines that follow within a short while are gathered and read as
// one sentence ("3 more messages") when the while is over. The region is the talk panel's
// own polite live region, so the table's announcements (moves, your turn) are not cut off.

import { tn } from "../lib/i18n.js";

const GATHER_MS = 2500;

export class TalkAnnouncer {
  /** @param {HTMLElement} region an aria-live="polite" element */
  constructor(region) {
    this.region = region;
    this.gathered = 0;
    this.timer = null;
  }

  /** Read `text` now, or count it in with the others arriving meanwhile. */
  say(text) {
    if (this.timer) {
      this.gathered += 1;
      return;
    }
    this.speak(text);
    this.timer = setTimeout(() => this.flush(), GATHER_MS);
  }

  flush() {
    this.timer = null;
    if (!this.gathered) return;
    const count = this.gathered;
    this.gathered = 0;
    this.say(tn("{n} more in the table talk.", "{n} more in the table talk.", count));
  }

  speak(text) {
    // Clearing first makes the same sentence be read again when it repeats.
    this.region.textContent = "";
    setTimeout(() => {
      this.region.textContent = text;
    }, 40);
  }
}
