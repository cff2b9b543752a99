// rematch.js — the rematch by acceptance, in the result panel of a finished live match. A
// player proposes a rematch; everyone sees the offer (a polite live region): who proposed
// it and whom it waits for; the others accept or decline it, and whoever accepted may
// withdraw. The server keeps the offer (the room's `rematch_offer`, docs/protocol.md) and
// starts the new match once every seat has accepted; the room page then moves everyone
// there. A rematch table opened otherwise (`rematch_id` without a started offer) is a link.

import { h, listWords } from "../lib/dom.js";
import { t } from "../lib/i18n.js";

/** The seat whose person `userId` is (theirs, or the one a computer plays for them). */
function voterSeat(room, userId) {
  if (!userId) return null;
  const seat = (room?.seats || []).find(
    (s) => s.user_id === userId || s.stand_in_for?.user_id === userId,
  );
  return seat ? seat.seat : null;
}

/** A seat's person by name (the person a computer stands in for, not the computer). */
function personName(ctx, seat) {
  return ctx.room?.seats?.[seat]?.stand_in_for?.name || ctx.name(seat);
}

/**
 * @param {object} ctx the finished frame's context
 * @param {{answer?: (accept: boolean) => void, userId?: () => string}} options `answer` sends
 *   the player's word on the rematch over the room's socket
 * @returns {HTMLElement[]} what goes among the buttons after the match
 */
export function rematchControls(ctx, { answer, userId } = {}) {
  const room = ctx.room;
  if (room?.status !== "finished") return [];
  const offer = room.rematch_offer;
  if (offer?.started) {
    return [h("p.rematch-offer", { role: "status" }, t("Everyone accepted: the rematch starts."))];
  }
  if (room.rematch_id) {
    return [
      h(
        "a.btn.primary",
        { href: `/rooms/${room.rematch_id}`, "data-key": "go-rematch" },
        t("Go to the rematch"),
      ),
    ];
  }
  const me = answer ? voterSeat(room, userId?.()) : null;
  const button = (key, text, accept, kind = "") =>
    h(
      `button.btn${kind}`,
      { type: "button", "data-key": key, onclick: () => answer(accept) },
      text,
    );
  const standing = offer && offer.declined === null;
  let words = "";
  const buttons = [];
  if (standing) {
    const waiting = Array.from({ length: ctx.seats }, (_, s) => s).filter(
      (s) => !offer.accepted.includes(s),
    );
    const others = listWords(waiting.map((s) => (s === me ? t("you") : personName(ctx, s))));
    words =
      offer.by === me
        ? t("You propose a rematch; waiting for {names}.", { names: others })
        : t("{name} proposes a rematch; waiting for {names}.", {
            name: personName(ctx, offer.by),
            names: others,
          });
    if (me !== null && offer.accepted.includes(me)) {
      buttons.push(button("rematch-withdraw", t("Withdraw"), false, ".ghost"));
    } else if (me !== null) {
      buttons.push(button("rematch-accept", t("Accept the rematch"), true, ".primary"));
      buttons.push(button("rematch-decline", t("Decline"), false));
    }
  } else {
    if (offer) {
      words =
        offer.declined === me
          ? t("You declined the rematch.")
          : t("{name} declined the rematch.", { name: personName(ctx, offer.declined) });
    }
    if (me !== null) {
      buttons.push(button("rematch-propose", t("Propose a rematch"), true, ".primary"));
    }
  }
  return [h("p.rematch-offer", { role: "status" }, words), ...buttons];
}
