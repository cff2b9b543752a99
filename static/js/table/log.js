// log.js — the play log of a live table: one line per move, newest first, each numbered with
// its move (so the numbers count down the list as the moves do). The words are the server's
// public account of each move (the state message's `event.text`, docs/protocol.md), with
// names put in for "Seat n" as they were when the move was made: the seat that moved by the
// name the event carries (`event.name`), so a computer that later takes the seat does not
// take over its past moves. A move the turn clock played (`event.played_by` "clock") says
// so, in the log and, until that seat moves again, on the table. Kept to the last 40 moves
// and shown as a collapsible panel in the side column.

import { h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { nameSeats } from "./context.js";

const KEPT = 40;

/** The event's account with names for "Seat n": the mover's at the time, others' now. */
function accountOf(ctx, event) {
  const mover = event.name || ctx.name(event.seat);
  const text = nameSeats(event.text, (seat) => (seat === event.seat ? mover : ctx.name(seat)));
  if (event.played_by !== "clock") return text;
  const clock = t("({name}'s time ran out: the clock played this move.)", { name: mover });
  return `${text} ${clock}`;
}

export class PlayLog {
  constructor() {
    this.entries = [];
  }

  /** A new version is shown: log what its event says happened (not for the first frame). */
  remember(ctx, previous) {
    const event = ctx.frame.event;
    if (!event?.text || !previous) return;
    this.entries.unshift({
      version: ctx.frame.version,
      seat: event.seat,
      name: event.name || ctx.name(event.seat),
      clock: event.played_by === "clock",
      text: accountOf(ctx, event),
    });
    this.entries = this.entries.slice(0, KEPT);
  }

  /** The line logged for this frame's version, if any. */
  lineFor(ctx) {
    const newest = this.entries[0];
    return newest?.version === ctx.frame.version ? newest.text : null;
  }

  /** While the seat the clock last played for has not moved since: a notice saying so
   *  (to that seat's player, in their own words and marked for emphasis). */
  clockNotice(ctx) {
    if (ctx.mode !== "live") return null;
    const played = this.entries.find(
      (entry, i) =>
        entry.clock && !this.entries.slice(0, i).some((later) => later.seat === entry.seat),
    );
    if (!played) return null;
    const mine = played.seat === ctx.me;
    return h(
      "p.clock-played",
      { class: mine ? "mine" : "", dataset: { seat: String(played.seat) } },
      mine
        ? t("Your time ran out: the clock played your last move for you.")
        : t("{name}'s time ran out: the clock played their last move.", { name: played.name }),
    );
  }

  panel(ctx) {
    if (ctx.mode !== "live" || !this.entries.length) return null;
    return h(
      "details.panel.log",
      { open: window.innerWidth > 900 },
      h("summary", {}, t("Play log")),
      h(
        "ol.log-list",
        // Scrollable, so reachable by keyboard; newest first, numbered by move.
        { reversed: true, tabindex: "0", "aria-label": t("Moves, newest first") },
        this.entries.map((entry) => h("li", { value: String(entry.version) }, entry.text)),
      ),
    );
  }
}
