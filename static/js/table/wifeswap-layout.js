// wifeswap-layout.js — what lies behind Royal Wife-Swap's arrangement board: the layout
// being built for this arrangement turn (families, orphans, the selected card) and the
// server's verdict on it. The board checks and scores nothing itself: PREVIEW_DELAY_MS after
// the layout last changed it asks the server for a preview of it (docs/protocol.md), one
// question at a time, and an answer counts only for the layout and the turn it was asked for.
// One ArrangeBoard per table (kept with ctx.keep); a new arrangement turn starts it afresh.

import { t, tn } from "../lib/i18n.js";

const PREVIEW_DELAY_MS = 150;

export function myFamilies(ctx) {
  return (ctx.view.families?.[ctx.me] || []).map((f) => [...f.cards]);
}

export class ArrangeBoard {
  constructor() {
    this.version = null; // the table version (the arrangement turn) the layout is for
    this.families = [];
    this.orphans = [];
    this.selected = null; // the card tapped, waiting for a place
    this.wanted = null; // the layout on the board, as JSON
    this.answer = null; // the server's answer, for the layout in its `key`
    this.asking = null; // the layout asked about and not answered yet
    this.timer = null; // the wait after the last change
    this.preview = null; // ctx.preview of the frame on screen
    this.onAnswer = null; // writes a new answer into the board on screen
  }

  /** Follow the frame on screen: a new arrangement turn starts from your families. */
  follow(ctx) {
    this.preview = ctx.preview;
    if (this.version !== ctx.frame.version) this.start(ctx, myFamilies(ctx));
    const wanted = JSON.stringify(this.action());
    if (wanted !== this.wanted) {
      this.wanted = wanted;
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.ask(), PREVIEW_DELAY_MS);
    }
  }

  /** Lay out `families` and `orphans` afresh (start over, clear, a suggestion). */
  start(ctx, families, orphans = []) {
    this.version = ctx.frame.version;
    this.families = families.map((f) => [...f]);
    this.orphans = [...orphans];
    this.selected = null;
    this.wanted = null;
    this.answer = null;
  }

  /** The layout as the action that would lay it out. */
  action() {
    return {
      type: "arrange",
      families: this.families.filter((f) => f.length).map((f) => [...f]),
      orphans: [...this.orphans],
    };
  }

  placed() {
    return new Set([...this.families.flat(), ...this.orphans]);
  }

  /** Move a card to a family (its index), "new", "orphans", or back (null). */
  moveTo(code, zone) {
    this.families = this.families.map((f) => f.filter((c) => c !== code));
    this.orphans = this.orphans.filter((c) => c !== code);
    if (zone === "new") this.families.push([code]);
    else if (zone === "orphans") this.orphans.push(code);
    else if (typeof zone === "number" && this.families[zone]) this.families[zone].push(code);
    this.families = this.families.filter((f) => f.length);
    this.selected = null;
  }

  /** Ask the server about the layout on the board, unless answered or already asked. */
  ask() {
    this.timer = null;
    if (this.asking || this.wanted === null || this.answer?.key === this.wanted) return;
    const key = this.wanted;
    const version = this.version;
    this.asking = key;
    this.preview(JSON.parse(key)).then(
      (reply) => {
        const answer = reply.ok
          ? { key, ok: true, result: reply.result }
          : { key, ok: false, message: reply.message };
        this.answered(version, answer);
      },
      (error) => {
        if (error?.reason === "offline") this.answered(version, { key, offline: true });
        else if (error?.reason === "unanswered") this.answered(version, null);
        else this.asking = null; // the table has moved on: nothing to ask any more
      },
    );
  }

  answered(version, answer) {
    this.asking = null;
    if (answer && this.version === version) {
      this.answer = answer;
      this.onAnswer?.();
    }
    // The layout changed meanwhile, or no answer came: ask again (if not answered yet).
    if (!this.timer) this.ask();
  }

  /** The server's answer for the layout on the board now, or null while it is being asked. */
  current() {
    return this.answer && this.answer.key === this.wanted ? this.answer : null;
  }

  /** A family's points as the server reckons them ("…" while asking). */
  pointsText(i) {
    const answer = this.current();
    if (!answer || answer.offline) return "…";
    if (!answer.ok) return "—";
    const family = answer.result.families?.[i];
    if (!family) return "—";
    return family.royal
      ? t("{points} pts · Royal ×2", { points: family.points })
      : t("{points} pts", { points: family.points });
  }

  /** [state, text]: "checking", "offline", "refused" (the server's words) or "ok". */
  verdict() {
    const answer = this.current();
    if (!answer) return ["checking", t("Checking this layout with the server…")];
    if (answer.offline) {
      return ["offline", t("Offline: the layout will be checked once the connection is back.")];
    }
    if (!answer.ok) return ["refused", answer.message];
    const { total, orphans } = answer.result;
    const text = orphans?.length
      ? tn(
          "The server accepts this layout: {total} pts in families, {n} orphan.",
          "The server accepts this layout: {total} pts in families, {n} orphans.",
          orphans.length,
          { total },
        )
      : t("The server accepts this layout: {total} pts in families.", { total });
    return ["ok", text];
  }
}
