// move-list.js — the review's list of moves: one entry per frame (the deal, then every move in
// the server's words), each a button that shows that move. One entry is in the Tab order at a
// time (a roving tabindex): the arrow keys move between entries and show the move, Home and
// End jump to the deal and the last move; the entry shown carries aria-current="step".
// Every entry has an empty `.move-marks` element beside its button, where marks about the
// move (an analysis of it) are appended.

import { h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";

export class MoveList {
  /**
   * @param {HTMLOListElement} root the list (templates/review.html, #move-list)
   * @param {string[]} texts each frame's words, frame 0 being the deal
   * @param {(index: number) => void} show shows frame `index` (and calls `current` back)
   */
  constructor(root, texts, show) {
    this.root = root;
    this.show = show;
    this.buttons = texts.map((text, index) =>
      h(
        "button.move-button",
        {
          type: "button",
          tabindex: "-1",
          dataset: { step: String(index) },
          onclick: () => show(index),
        },
        h("span.move-number", {}, index === 0 ? t("Deal") : `${index}.`),
        " ",
        h("span.move-text", {}, text),
      ),
    );
    root.replaceChildren(
      ...this.buttons.map((button, index) =>
        h(
          "li.move-entry",
          { dataset: { step: String(index) } },
          button,
          h("span.move-marks", { dataset: { step: String(index) } }),
        ),
      ),
    );
    root.addEventListener("keydown", (event) => this.onKeyDown(event));
    this.shown = -1;
  }

  /** The entry of frame `index` is the one shown (and the one Tab reaches). */
  current(index) {
    const before = this.buttons[this.shown];
    if (before) {
      before.removeAttribute("aria-current");
      before.tabIndex = -1;
    }
    const button = this.buttons[index];
    if (!button) return;
    this.shown = index;
    button.setAttribute("aria-current", "step");
    button.tabIndex = 0;
    this.reveal(button);
  }

  /** Scroll the list (never the page) so that `button` is in view. */
  reveal(button) {
    const list = this.root;
    const top = button.offsetTop - list.offsetTop;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (top + button.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top + button.offsetHeight - list.clientHeight;
    }
  }

  onKeyDown(event) {
    const last = this.buttons.length - 1;
    const moves = {
      ArrowDown: this.shown + 1,
      ArrowRight: this.shown + 1,
      ArrowUp: this.shown - 1,
      ArrowLeft: this.shown - 1,
      Home: 0,
      End: last,
    };
    if (!(event.key in moves)) return;
    // The page's own keys (← → Home End) would step a second time.
    event.preventDefault();
    event.stopPropagation();
    const index = Math.max(0, Math.min(last, moves[event.key]));
    this.show(index);
    this.buttons[index].focus();
  }
}
