// context.js — the `ctx` every drawing function of the table gets: one frame (what the
// server sent for one version) and what can be done with it. Game modules read the view and
// the legal actions from it and act through it; they never reach the page, the socket or
// another table. See docs/client.md ("A game module") for the fields.

import { cardEl, cardName } from "../lib/cards.js";
import { t, tn } from "../lib/i18n.js";

/** A score's unit when the game names none: "1 point", "2 points". */
const points = (n) => tn("point", "points", n);

// "Seat 2" as the server's messages write it: in English, and in the page's language.
const SEAT_WORDS = new RegExp(
  [...new Set(["Seat {number}", t("Seat {number}")])]
    .map((words) => words.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace("{number}", "(\\d+)"))
    .map((pattern) => `\\b${pattern}\\b`)
    .join("|"),
  "gu",
);

/** `text` with each "Seat n" the server wrote replaced by nameOf(n - 1). */
export function nameSeats(text, nameOf) {
  return String(text || "").replace(SEAT_WORDS, (_m, ...numbers) =>
    nameOf(Number(numbers.find((n) => n !== undefined)) - 1),
  );
}

/**
 * @param {object} frame {room, view, version, seat, event, clocks?, hands?}
 * @param {object} table what the frame is drawn for:
 *   {game, pack, mode, act(action, slot), preview(action, version), redraw(focusKey), keep(key, create)}
 */
export function makeContext(frame, table) {
  const { room, view } = frame;
  const { game, pack, mode, lowerWins } = table;
  const me = frame.seat ?? null;
  const seats = view.seats ?? room?.seat_count ?? view.hand_sizes?.length ?? 2;
  const titles = game.titles || {};
  const unitFor = (count) => (game.unitFor || points)(Number(count));
  const name = (seat) => {
    if (seat === null || seat === undefined) return "";
    return room?.seats?.[seat]?.name || t("Seat {number}", { number: seat + 1 });
  };
  return {
    frame,
    view,
    room,
    me,
    seats,
    pack,
    titles,
    mode,
    lowerWins: Boolean(lowerWins),
    // The unit agreeing with a score: "1 point", "2 points", "1 Game Point" (the game
    // module's `unitFor(n)`, in the page's language).
    unitFor,
    name,
    who: (seat) => (seat === me ? t("You") : name(seat)),
    // Server messages say "Seat 2" (in the page's language); show the player's name instead.
    words: (text) => nameSeats(text, name),
    card: (code, opts = {}) => cardEl(code, pack, { titles, ...opts }),
    cardName: (code) => cardName(code, pack, titles),
    legal: view.legal_actions || [],
    canAct:
      mode === "live" &&
      me !== null &&
      (room?.status ?? "playing") === "playing" &&
      (view.to_act || []).includes(me),
    hands: frame.hands || null,
    /** Send an action; a refusal is shown in the `.action-error[data-slot=slot]` element. */
    act: (action, slot) => table.act(action, slot),
    /** What the server says `action` would do at this frame's version (a Promise). */
    preview: (action) => table.preview(action, frame.version),
    /** Draw the current frame again (after a change of the game module's own state). */
    redraw: (focusKey) => table.redraw(focusKey),
    /** State a game module keeps for this table across frames: create() on first use. */
    keep: (key, create) => table.keep(key, create),
  };
}
