// errors.js — where a refusal is shown: next to the control that caused it. Every region of
// the table that can act has its own `.action-error` slot (hand, actions, center, board,
// result, and the general one at the bottom); a message goes into the named slot (or the
// general one when the region is not on screen) and clears itself after a while.

import { h } from "../lib/dom.js";

const SHOWN_MS = 9000;

/** An empty error slot to place next to a control: errorSlot("hand"). */
export function errorSlot(slot) {
  return h(`p.action-error${slot === "general" ? ".general" : ""}`, {
    dataset: { slot },
    role: "alert",
    hidden: true,
  });
}

export class ErrorSlots {
  /** @param {HTMLElement} root the table's element */
  constructor(root) {
    this.root = root;
    this.timer = null;
  }

  /** Show `message` in the slot named `slot` (and hide every other message). */
  show(message, slot = "general") {
    this.clear();
    const target =
      this.root.querySelector(`.action-error[data-slot="${slot}"]`) ||
      this.root.querySelector('.action-error[data-slot="general"]');
    if (!target) return;
    target.textContent = message;
    target.hidden = false;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.clear(), SHOWN_MS);
  }

  clear() {
    for (const el of this.root.querySelectorAll(".action-error")) {
      el.hidden = true;
      el.textContent = "";
    }
  }

  /** The messages on screen now, as [slot, text] pairs (to show again after a redraw). */
  visible() {
    return [...this.root.querySelectorAll(".action-error:not([hidden])")].map((el) => [
      el.dataset.slot,
      el.textContent,
    ]);
  }
}
