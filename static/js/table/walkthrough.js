// walkthrough.js — the first-match walkthrough: a few steps that say what the game is about,
// in a dialog over the table, the first time this browser sits down to play that game (the
// browser remembers it has been seen: localStorage `parlour-walkthrough:<game>`). It can be
// skipped at any step, and opened again from the table's "How to play" button. Its steps are
// the game's own (its lobby sentence, then its presentation's walkthrough), handed to the
// room page in its boot data (`guide.walkthrough`, app/routes/guide.py), and a last one on
// the table's own help.

import { boot, h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";

const TABLE_STEP = {
  title: t("Help at the table"),
  text: t(
    "Rest the pointer on a button, or move to it with Tab, to read what it does. “Rules” has the game in short; “Sound” turns the table's sounds on or off.",
  ),
};

export class Walkthrough {
  /** @param {string} game the server's name of the game */
  constructor(game) {
    this.key = `parlour-walkthrough:${game}`;
    const steps = boot().guide?.walkthrough || [];
    this.steps = steps.length ? [...steps, TABLE_STEP] : [];
    this.dialog = null;
    this.step = 0;
    this.offered = false; // opening after the frame on screen is drawn
  }

  /** A new frame was drawn: open the walkthrough if this is a first match of the game. */
  offer(ctx) {
    if (ctx.mode !== "live" || ctx.me === null || ctx.view.over) return;
    if (!this.steps.length || this.seen() || this.dialog?.open || this.offered) return;
    // Opened once the table is on screen, in a task of its own: the table's first drawing
    // and the dialog's are each a phone's long task, and together they would hold the page
    // unresponsive for both.
    this.offered = true;
    requestAnimationFrame(() =>
      setTimeout(() => {
        this.offered = false;
        if (!this.seen() && !this.dialog?.open) this.open();
      }),
    );
  }

  seen() {
    return localStorage.getItem(this.key) === "seen";
  }

  /** The table's "How to play" button, which opens the walkthrough again. */
  button() {
    if (!this.steps.length) return null;
    return h(
      "button.btn.small.ghost.walkthrough-button",
      { type: "button", "data-key": "walkthrough", onclick: () => this.open() },
      h("span.walkthrough-icon", { "aria-hidden": "true" }, "?"),
      h("span.tool-label", {}, t("How to play")),
    );
  }

  open() {
    this.dialog ??= this.build();
    this.show(0);
    if (!this.dialog.open) this.dialog.showModal();
    this.dialog.querySelector(".walkthrough-next").focus();
  }

  build() {
    const dialog = h(
      "dialog.dialog.walkthrough",
      { "aria-labelledby": "walkthrough-title", "aria-describedby": "walkthrough-text" },
      h("p.small.muted.walkthrough-count", {}),
      h("h2", { id: "walkthrough-title" }),
      h("p", { id: "walkthrough-text" }),
      h(
        "div.row.between.wrap",
        {},
        h(
          "button.btn.ghost.walkthrough-skip",
          { type: "button", onclick: () => dialog.close() },
          t("Skip"),
        ),
        h(
          "div.row",
          {},
          h(
            "button.btn.walkthrough-back",
            { type: "button", onclick: () => this.show(this.step - 1) },
            t("Back"),
          ),
          h(
            "button.btn.primary.walkthrough-next",
            {
              type: "button",
              onclick: () => {
                if (this.step >= this.steps.length - 1) dialog.close();
                else this.show(this.step + 1);
              },
            },
            t("Next"),
          ),
        ),
      ),
    );
    // However it is closed (the last step, Skip, Escape), it has been seen.
    dialog.addEventListener("close", () => localStorage.setItem(this.key, "seen"));
    document.body.append(dialog);
    return dialog;
  }

  show(index) {
    const last = this.steps.length - 1;
    this.step = Math.max(0, Math.min(last, index));
    const { title, text } = this.steps[this.step];
    const dialog = this.dialog;
    dialog.querySelector(".walkthrough-count").textContent = t(
      "How to play · step {number} of {count}",
      { number: this.step + 1, count: this.steps.length },
    );
    dialog.querySelector("#walkthrough-title").textContent = title;
    dialog.querySelector("#walkthrough-text").textContent = text;
    dialog.querySelector(".walkthrough-back").disabled = this.step === 0;
    dialog.querySelector(".walkthrough-next").textContent =
      this.step === last ? t("Start playing") : t("Next");
  }
}
