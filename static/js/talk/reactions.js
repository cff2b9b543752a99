// reactions.js — a player's quick reactions: the fixed set the server accepts, as buttons
// under the chat box, and each reaction anyone sends shown for a moment as a bubble at the
// sender's plate on the table (or at their seat in the lobby). Reactions are not kept: a
// bubble is gone after BUBBLE_MS, and nothing of it is drawn into the table itself, which
// redraws at every move.

import { h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";

export const REACTIONS = ["👍", "😂", "😮", "😢", "🎉", "Well played"];
const LABELS = {
  "👍": t("Thumbs up"),
  "😂": t("Laughing"),
  "😮": t("Surprised"),
  "😢": t("Sad"),
  "🎉": t("Celebrate"),
  "Well played": t("Well played"),
};

/** A reaction as the page shows it: the emoji, or the words in the page's language (the
 *  server knows a reaction by its English words). */
export function reactionText(reaction) {
  return reaction === "Well played" ? LABELS[reaction] : reaction;
}
const BUBBLE_MS = 2600;

/**
 * The reaction buttons.
 * @param {(reaction: string) => void} send
 */
export function reactionButtons(send) {
  return REACTIONS.map((reaction) =>
    h(
      "button.btn.small.reaction",
      {
        type: "button",
        "aria-label": t("React: {reaction}", { reaction: LABELS[reaction] }),
        title: LABELS[reaction],
        onclick: () => send(reaction),
      },
      reactionText(reaction),
    ),
  );
}

/** Where a seat sits on the page now: its plate at the table, else its lobby row. */
function anchorOf(seat) {
  return (
    document.querySelector(`.table .plate[data-seat="${seat}"]`) ||
    document.querySelector(`.seat-list .seat[data-seat="${seat}"]`)
  );
}

/**
 * Show a reaction {seat, name, reaction} as a bubble over the sender's plate; false when
 * the sender has no plate on the page.
 */
export function showBubble(message) {
  const anchor = anchorOf(message.seat);
  if (!anchor) return false;
  const box = anchor.getBoundingClientRect();
  const bubble = h(
    "div.reaction-bubble",
    { "aria-hidden": "true", dataset: { seat: String(message.seat) } },
    h("span.reaction-text", {}, reactionText(message.reaction)),
  );
  bubble.style.left = `${box.left + window.scrollX + box.width / 2}px`;
  bubble.style.top = `${box.top + window.scrollY}px`;
  document.body.append(bubble);
  setTimeout(() => bubble.remove(), BUBBLE_MS);
  return true;
}
