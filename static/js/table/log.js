// log.js — the play log of a live table: one line per move, newest first, each numbered with
// its move (so the numbers count down the list as the moves do). The words are the server's
// public account of each move (the state message's `event.text`, docs/protocol.md), with
// names put in for "Seat n" — the same words the review shows. Kept to the last 40 moves and
// shown as a collapsible panel in the side column.

import { h } from "../lib/dom.js";

const KEPT = 40;

export class PlayLog {
  constructor() {
    this.entries = [];
  }

  /** A new version is shown: log what its event says happened (not for the first frame). */
  remember(ctx, previous) {
    const text = ctx.frame.event?.text;
    if (!text || !previous) return;
    this.entries.unshift({ version: ctx.frame.version, text });
    this.entries = this.entries.slice(0, KEPT);
  }

  /** The line logged for this frame's version, if any. */
  lineFor(ctx) {
    const newest = this.entries[0];
    return newest?.version === ctx.frame.version ? ctx.words(newest.text) : null;
  }

  panel(ctx) {
    if (ctx.mode !== "live" || !this.entries.length) return null;
    return h(
      "details.panel.log",
      { open: window.innerWidth > 900 },
      h("summary", {}, "Play log"),
      h(
        "ol.log-list",
        // Scrollable, so reachable by keyboard; newest first, numbered by move.
        { reversed: true, tabindex: "0", "aria-label": "Moves, newest first" },
        this.entries.map((entry) =>
          h("li", { value: String(entry.version) }, ctx.words(entry.text)),
        ),
      ),
    );
  }
}
