// animation.js — a short animation for every change of the table. Before a redraw the table
// takes a snapshot (where each card, plate and pile was, every score, every value a game
// marks with data-watch); after it, each card moves from where it was (FLIP, by card code)
// or flies in from the player who played it (data-from-seat) or the pile it came from
// (data-from-pile), scores pulse with "+n", and watched values (hand sizes, direction,
// piles) pulse or spin when they change. Nothing here changes what is shown.

import { h } from "../lib/dom.js";
import { DEFAULT_FRAME_MS, MIN_FRAME_MS } from "./frames.js";

// A pace set faster than the default ("parlour-pace", frames.js) shortens every animation in
// proportion: at that pace the next frame replaces this one sooner, and a move still
// gliding into place then would only hold up whoever wants to click what it shows.
const SPEED = Math.min(1, MIN_FRAME_MS / DEFAULT_FRAME_MS);
const lasting = (ms) => Math.round(ms * SPEED);

const MOVE_MS = lasting(340);
// Cards drawn small in a side panel or an open hand keep still, and so do the cards of a
// finished deal's summary (the same codes may be in play again).
const STILL = ".last-trick, .open-hand, [data-past-deal]";

function rectsBy(root, selector, key) {
  const rects = new Map();
  for (const el of root.querySelectorAll(selector)) {
    rects.set(el.dataset[key], el.getBoundingClientRect());
  }
  return rects;
}

/** Where things are now, to animate from after the next redraw. */
export function snapshot(root) {
  const rects = new Map();
  for (const el of root.querySelectorAll("[data-card]")) {
    if (!el.closest(STILL)) rects.set(el.dataset.card, el.getBoundingClientRect());
  }
  const scores = new Map();
  for (const el of root.querySelectorAll(".scoreboard [data-score]")) {
    scores.set(el.dataset.score, Number(el.textContent));
  }
  const watched = new Map();
  for (const el of root.querySelectorAll("[data-watch]")) {
    watched.set(el.dataset.watch, el.dataset.value);
  }
  return {
    rects,
    plates: rectsBy(root, ".plate[data-seat]", "seat"),
    piles: rectsBy(root, "[data-pile]", "pile"),
    scores,
    watched,
  };
}

/** Where a card that was not on screen before comes from: its player, its pile, the stock. */
function origin(el, before, plates) {
  const seat = el.closest("[data-from-seat]")?.dataset.fromSeat;
  const pile = el.closest("[data-from-pile]")?.dataset.fromPile;
  if (seat !== undefined) return before.plates.get(seat) || plates.get(seat);
  if (pile) return before.piles.get(pile);
  if (el.closest(".hand")) return before.piles.get("stock") || before.piles.get("deck");
  return undefined;
}

function moveCards(root, before, hadFrame) {
  const plates = rectsBy(root, ".plate[data-seat]", "seat");
  for (const el of root.querySelectorAll("[data-card]")) {
    if (el.closest(STILL)) continue;
    const now = el.getBoundingClientRect();
    const from = before.rects.get(el.dataset.card) || origin(el, before, plates);
    if (!from) {
      if (hadFrame) {
        el.animate(
          [
            { opacity: 0, transform: "scale(.9)" },
            { opacity: 1, transform: "none" },
          ],
          {
            duration: MOVE_MS,
            easing: "ease-out",
          },
        );
      }
      continue;
    }
    const dx = from.left + from.width / 2 - (now.left + now.width / 2);
    const dy = from.top + from.height / 2 - (now.top + now.height / 2);
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
    const scale =
      from.width && now.width ? Math.min(1.4, Math.max(0.4, from.width / now.width)) : 1;
    el.animate(
      [{ transform: `translate(${dx}px, ${dy}px) scale(${scale})` }, { transform: "none" }],
      { duration: MOVE_MS, easing: "cubic-bezier(.2,.75,.25,1)" },
    );
  }
}

/** Points scored: pulse the score and float "+n" over it. */
function pulseScores(root, before) {
  for (const el of root.querySelectorAll(".scoreboard [data-score]")) {
    const old = before.scores.get(el.dataset.score);
    const now = Number(el.textContent);
    if (old === undefined || now === old) continue;
    const delta = now - old;
    el.parentElement.append(
      h("span.score-float", { "aria-hidden": "true" }, `${delta > 0 ? "+" : ""}${delta}`),
    );
    el.animate([{ transform: "scale(1.5)" }, { transform: "none" }], {
      duration: lasting(700),
      easing: "ease-out",
    });
  }
}

/** Counts and states a game marks with data-watch pulse when they change (draws, reversals). */
function pulseWatched(root, before) {
  for (const el of root.querySelectorAll("[data-watch]")) {
    const old = before.watched.get(el.dataset.watch);
    if (old === undefined || old === el.dataset.value) continue;
    const frames = el.dataset.spin
      ? [{ transform: "rotate(-180deg) scale(1.3)" }, { transform: "none" }]
      : [{ transform: "scale(1.35)", filter: "brightness(1.4)" }, { transform: "none" }];
    el.animate(frames, { duration: lasting(520), easing: "cubic-bezier(.2,.75,.25,1)" });
  }
}

/**
 * Animate from `before` (a snapshot) to what the table shows now.
 * @param {object} ctx the frame now shown
 * @param {object | null} previous the frame shown before it
 */
export function animateChanges(root, before, ctx, previous) {
  moveCards(root, before, Boolean(previous));
  pulseScores(root, before);
  pulseWatched(root, before);
  if (previous && previous.view?.to_act?.join() !== ctx.view.to_act?.join()) {
    for (const el of root.querySelectorAll(".turn-banner, .plate.to-act")) {
      el.animate([{ opacity: 0.4 }, { opacity: 1 }], { duration: lasting(260) });
    }
  }
}
