// wifeswap.js — Royal Wife-Swap's part of the table (docs/rules/wifeswap.md): the trick in
// progress, won (while its winner arranges) or just completed, every player's families with
// their points, round scores and match totals, and the round history. The trick winner's
// arrangement board is in wifeswap-board.js.

import { cardShort, parseCard } from "../lib/cards.js";
import { h } from "../lib/dom.js";
import { t, tn } from "../lib/i18n.js";
import { trickEl } from "./pieces.js";
import { arrangeBoard } from "./wifeswap-board.js";

// Why a card cannot be played, by the suit that was led.
const LED = {
  S: t("Spades were led: play one of the highlighted cards."),
  H: t("Hearts were led: play one of the highlighted cards."),
  C: t("Clubs were led: play one of the highlighted cards."),
  D: t("Diamonds were led: play one of the highlighted cards."),
};

/** On a plate, families as short text ("K♠ Q♠ 7♠ · 23"), readable at any size. */
function compactFamilies(ctx, seat, families) {
  const royal = t("♛ Royal");
  return h(
    "ul.families-compact",
    { "aria-label": t("{name}'s families", { name: ctx.name(seat) }) },
    families.map((f) =>
      h(
        "li.family-line",
        { class: f.royal ? "royal" : "" },
        f.cards.map((c) =>
          h("span.short-card", { class: /[HD]$/.test(c) ? "red" : "" }, cardShort(c, ctx.pack)),
        ),
        h("span.family-points", {}, ` ${f.points}${f.royal ? ` ${royal}` : ""}`),
        h("span.sr-only", {}, f.royal ? t(" points, Royal") : t(" points")),
      ),
    ),
  );
}

function familiesEl(ctx, seat, { compact = false } = {}) {
  const families = ctx.view.families?.[seat] || [];
  if (!families.length) return compact ? null : h("p.small.muted", {}, t("No families yet."));
  if (compact) return compactFamilies(ctx, seat, families);
  return h(
    "div.families",
    { role: "group", "aria-label": t("{name}'s families", { name: ctx.name(seat) }) },
    families.map((f, i) =>
      h(
        "div.family",
        {
          role: "group",
          class: f.royal ? "royal" : "",
          "aria-label": f.royal
            ? t("Family {number}, Royal: {points} points", { number: i + 1, points: f.points })
            : t("Family {number}: {points} points", { number: i + 1, points: f.points }),
        },
        h(
          "div.family-cards",
          {},
          f.cards.map((c) => ctx.card(c, { className: "small" })),
        ),
        h("span.family-points", {}, `${f.points}${f.royal ? " ♛" : ""}`),
      ),
    ),
  );
}

export default {
  art: "QH", // the card that pictures the game on the home page, in its own pack
  showsLastTrick: true,

  progressLabel: t("Points progression (totals plus this round's families)"),
  // At the end of the match the last round's families are already in the totals.
  progress: (view) =>
    (view.totals || []).map((total, s) => total + (view.over ? 0 : (view.round_scores?.[s] ?? 0))),

  info(ctx) {
    const v = ctx.view;
    const chips = [
      [
        t("Round"),
        v.rounds ? t("{number} of {count}", { number: v.round, count: v.rounds }) : String(v.round),
      ],
      [t("Tricks"), String(v.tricks_this_round ?? 0)],
      [
        t("Without laying"),
        t("{number} of {count}", { number: v.tricks_without_laying ?? 0, count: 20 }),
      ],
    ];
    if (!v.rounds) chips.push([t("Target"), String(v.target)]);
    return chips;
  },

  seatExtras(ctx, seat) {
    const v = ctx.view;
    return h(
      "span.extras",
      {},
      h(
        "span.extra",
        {},
        tn(
          "{n} point in families this round",
          "{n} points in families this round",
          v.round_scores?.[seat] ?? 0,
        ),
      ),
      familiesEl(ctx, seat, { compact: true }),
    );
  },

  center(ctx) {
    const v = ctx.view;
    const parts = [];
    if (v.phase === "arrange" && v.trick?.length) {
      parts.push(
        trickEl(ctx, v.trick, {
          winner: v.trick_winner,
          label: t("Trick won"),
          caption:
            v.trick_winner === ctx.me
              ? t("{name} won the trick.", { name: ctx.name(v.trick_winner) })
              : t("{name} won the trick and is arranging their families.", {
                  name: ctx.name(v.trick_winner),
                }),
        }),
      );
    } else if (v.trick?.length) {
      parts.push(trickEl(ctx, v.trick, { label: t("Trick in progress") }));
    } else if (v.last_trick?.cards?.length) {
      parts.push(lastTrickEl(ctx, v.last_trick));
    } else {
      parts.push(h("div.trick.empty", {}, h("p.muted", {}, t("The trick will appear here."))));
    }
    parts.push(
      h(
        "p.small",
        { dataset: { watch: "stock", value: String(v.stock_size) } },
        t("Stock: {cards}", { cards: tn("{n} card", "{n} cards", v.stock_size ?? 0) }),
      ),
    );
    if (ctx.canAct && v.phase === "arrange" && ctx.mode === "live") parts.push(arrangeBoard(ctx));
    return h("div.wifeswap-center", {}, parts);
  },

  blockedReason(ctx) {
    const v = ctx.view;
    if (v.phase === "arrange") return t("Use the board above: arrange your families, or pass.");
    const led = v.trick?.[0]?.card;
    if (led) return LED[parseCard(led).suit] || null;
    return null;
  },

  summary(ctx) {
    const v = ctx.view;
    const rows = v.round_history || [];
    const mine =
      ctx.me !== null
        ? h(
            "section.panel.summary",
            { "aria-label": t("Your families") },
            h("h2", {}, t("Your families")),
            familiesEl(ctx, ctx.me),
          )
        : null;
    if (!rows.length) return mine;
    return h(
      "div.stack",
      {},
      mine,
      h(
        "section.panel.summary",
        { "aria-label": t("Rounds") },
        h("h2", {}, t("Rounds")),
        v.last_round?.reason
          ? h(
              "p.small.muted",
              {},
              t("Round {number} ended: {reason}.", {
                number: v.last_round.round,
                reason: v.last_round.reason,
              }),
            )
          : null,
        h(
          "table.hands-table",
          {},
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              h("th", {}, t("Round")),
              Array.from({ length: ctx.seats }, (_, s) => h("th", {}, ctx.name(s))),
            ),
          ),
          h(
            "tbody",
            {},
            rows.map((row, i) =>
              h(
                "tr",
                {},
                h("td", {}, String(i + 1)),
                row.map((p) => h("td", {}, String(p))),
              ),
            ),
            h(
              "tr.total",
              {},
              h("td", {}, t("Total")),
              (v.totals || []).map((p) => h("td", {}, h("strong", {}, String(p)))),
            ),
          ),
        ),
      ),
    );
  },
};

/** The trick just completed, face up as it was played for everyone, even cards drawn since. */
function lastTrickEl(ctx, lastTrick) {
  return h(
    "div.trick",
    { role: "group", "aria-label": t("Completed trick") },
    lastTrick.cards.map(({ seat, card }) =>
      h(
        "figure.trick-card",
        { class: seat === lastTrick.winner ? "won" : "" },
        ctx.card(card),
        h(
          "figcaption",
          {},
          ctx.name(seat),
          seat === lastTrick.winner ? h("span.crown", {}, " ★") : null,
        ),
      ),
    ),
    h("p.trick-caption", {}, t("{name} took the trick.", { name: ctx.name(lastTrick.winner) })),
  );
}
