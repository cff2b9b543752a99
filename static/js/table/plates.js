// plates.js — the players around the table, each on a plate: name and avatar, dealer chip,
// presence (connected, or an "away" badge), a "computer" badge (and whom it plays for), the
// hand as face-down backs (or face up in a review), points, the game's own facts
// (seatExtras), whose turn and the turn clock, that a computer is thinking (thinking.js), and
// for the host the button that lets a computer play for a player away longer than the
// absence grace. Everyone but you sits clockwise from your left.

import { backsEl } from "../lib/cards.js";
import { h } from "../lib/dom.js";
import { t, tc, tn } from "../lib/i18n.js";
import { clockEl, whenReady } from "./clocks.js";
import { isThinking, thinkingSign } from "./thinking.js";

/**
 * Everyone but me, clockwise from my left (seat + 1 is on seat's left); a spectator sees all.
 * @param {{seatExtras?: Function, replace?: (seat: number) => void}} parts the game's extra
 *   facts for a plate, and what the host's "Let a computer play" button does (or nothing)
 */
export function plates(ctx, parts) {
  const order = [];
  const base = ctx.me ?? 0;
  const start = ctx.me === null ? 0 : 1;
  for (let k = start; k < ctx.seats; k += 1) order.push((base + k) % ctx.seats);
  return order.map((seat) => plate(ctx, seat, parts));
}

function status(ctx, seat, holder, toAct) {
  const { view } = ctx;
  const words = [];
  if (toAct && !view.over) words.push(t("to play"));
  if (view.dealer === seat) words.push(t("dealer"));
  if (holder?.bot) words.push(isThinking(ctx, seat) ? t("computer, thinking") : t("computer"));
  if (holder?.stand_in_for) {
    words.push(t("playing for {name}", { name: holder.stand_in_for.name }));
  } else if (holder && ctx.mode === "live" && !holder.connected) words.push(t("away"));
  return words;
}

/** The "computer" and "away" badges on a plate, on a row of their own (or nothing). */
function badgeRow(ctx, holder) {
  const shown = badges(ctx, holder);
  return shown.length ? h("div.plate-badges", {}, shown) : null;
}

function badges(ctx, holder) {
  if (!holder) return [];
  if (holder.bot) {
    const standIn = holder.stand_in_for;
    return [
      h(
        "span.badge.computer",
        {
          title: standIn
            ? t("A computer plays for {name}", { name: standIn.name })
            : t("A computer player"),
        },
        standIn ? t("computer for {name}", { name: standIn.name }) : t("computer"),
      ),
    ];
  }
  if (ctx.mode === "live" && !holder.connected) {
    return [h("span.badge.away", { title: t("Not connected to this table") }, t("away"))];
  }
  return [];
}

/** One player's plate; `listed`: among the others' plates (a list item), or on its own (yours). */
export function plate(ctx, seat, parts, { listed = true } = {}) {
  const { view, room } = ctx;
  const live = ctx.mode === "live";
  const holder = room?.seats?.[seat];
  const toAct = (view.to_act || []).includes(seat);
  const size = view.hand_sizes?.[seat] ?? 0;
  const score = view.scores?.[seat] ?? 0;
  const shownHand = ctx.hands?.[seat];
  const facts = status(ctx, seat, holder, toAct);
  const you = seat === ctx.me ? t(" (you)") : "";
  const cards = tn("{n} card", "{n} cards", size);
  const holding = t("{player}: {cards} in hand, {score} {unit}", {
    player: `${ctx.name(seat)}${you}`,
    cards,
    score,
    unit: ctx.unitFor(score),
  });
  const label = `${holding}${facts.length ? `, ${facts.join(", ")}` : ""}`;
  return h(
    "div.plate",
    {
      role: listed ? "listitem" : "group",
      "aria-label": label,
      dataset: { seat: String(seat) },
      class: [
        toAct && !view.over ? "to-act" : "",
        (view.winners || []).includes(seat) ? "winner" : "",
        holder && live && !holder.connected && !holder.bot ? "away" : "",
      ].join(" "),
    },
    h(
      "div.plate-head",
      {},
      h(
        "span.avatar",
        { "aria-hidden": "true", class: holder?.bot ? "bot" : "" },
        ctx.name(seat).slice(0, 1),
      ),
      h("span.plate-name", {}, ctx.name(seat), you ? h("span.muted", {}, you) : null),
      view.dealer === seat
        ? h("span.dealer-chip", { title: t("Dealer") }, tc("dealer chip", "D"))
        : null,
      holder && live && !holder.bot
        ? h("span.presence", {
            class: holder.connected ? "on" : "off",
            title: holder.connected ? t("Connected") : t("Away"),
          })
        : null,
    ),
    badgeRow(ctx, holder),
    shownHand
      ? h(
          "div.open-hand",
          { role: "group", "aria-label": t("{name}'s hand", { name: ctx.name(seat) }) },
          shownHand.map((code) => ctx.card(code, { className: "small" })),
        )
      : h(
          "div.plate-hand",
          { "aria-hidden": "true", dataset: { watch: `size:${seat}`, value: String(size) } },
          backsEl(size),
        ),
    h(
      "div.plate-foot",
      {},
      h(
        "span.plate-score",
        {},
        h("strong", { dataset: { score: String(seat) } }, score),
        ` ${ctx.unitFor(score)}`,
      ),
      parts.seatExtras ? parts.seatExtras(ctx, seat) : null,
      toAct && !view.over
        ? h("span.turn-chip", {}, seat === ctx.me ? t("Your turn") : t("To play"))
        : null,
      clockEl(ctx, seat),
      thinkingSign(ctx, seat),
    ),
    replaceButton(ctx, seat, holder, parts.replace, parts.claim),
  );
}

/** The host may let a computer play for a player away longer than the absence grace (the
 * button counts the grace down; the player may take the seat back when they return). At a
 * turn-based table any other player may, once the player's deadline has passed, and may
 * claim the match instead. */
function replaceButton(ctx, seat, holder, replace, claim) {
  if (ctx.mode !== "live" || !replace || ctx.room?.status !== "playing") return null;
  if (ctx.room.pace === "turn_based") return deadlineButtons(ctx, seat, holder, replace, claim);
  if (!holder || holder.bot || holder.connected || seat === ctx.me || ctx.view.over) return null;
  const awaySince = Date.parse(holder.away_since ?? "");
  const graceMs = (ctx.room.absence_grace ?? 0) * 1000;
  const button = h("button.btn.small.replace", {
    type: "button",
    "data-key": `replace:${seat}`,
    onclick: () => replace(seat),
  });
  const label = t("Let a computer play for {name}", { name: ctx.name(seat) });
  return whenReady(button, Number.isFinite(awaySince) ? awaySince + graceMs : 0, label);
}

/** At a turn-based table, for another player's seat whose deadline is set: once it has
 * passed, let a computer play it, or claim the match (both count the time down until then). */
function deadlineButtons(ctx, seat, holder, replace, claim) {
  const deadline = ctx.frame.clocks?.[seat]?.deadline;
  if (ctx.me === null || seat === ctx.me || !deadline || !holder || holder.bot) return null;
  const readyAt = Date.parse(deadline);
  const name = ctx.name(seat);
  const computer = h("button.btn.small.replace", {
    type: "button",
    "data-key": `replace:${seat}`,
    onclick: () => replace(seat),
  });
  const claiming = claim
    ? h("button.btn.small.claim", { type: "button", "data-key": "claim", onclick: () => claim() })
    : null;
  return h(
    "span.deadline-actions",
    {},
    whenReady(computer, readyAt, t("Let a computer play for {name}", { name })),
    claiming ? whenReady(claiming, readyAt, t("Claim the match from {name}", { name })) : null,
  );
}
