// log.js — the play log of a live table: one line per move, newest first, written by the
// game module from each view's public "last" (what the move did, as everyone may know it),
// kept to the last 40 moves and shown as a collapsible panel in the side column.

import { h } from "../lib/dom.js";

const KEPT = 40;

export class PlayLog {
  /** @param {(last: object, ctx: object) => string | null} [describe] the game's describeLast */
  constructor(describe) {
    this.describe = describe;
    this.entries = [];
  }

  /** A new version is shown: log what its "last" says happened (not for the first frame). */
  remember(ctx, previous) {
    const last = ctx.view.last;
    if (!last || !previous || !this.describe) return;
    const text = this.describe(last, ctx);
    if (!text) return;
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
        {},
        this.entries.map((entry) => h("li", {}, ctx.words(entry.text))),
      ),
    );
  }
}
