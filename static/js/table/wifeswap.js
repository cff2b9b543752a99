// wifeswap.js — Royal Wife-Swap's part of the table (docs/rules/wifeswap.md): the trick
// (with follow-suit highlighting from the legal plays), every player's families with their
// points, round scores and match totals, and, for the trick winner, the arrangement board:
// tap (or drag) cards from the trick, your hand and your families into families, see each
// family's points as you go, and lay them out or pass. The board checks nothing itself:
// the server judges the whole layout and its refusal is shown next to the board. The
// server's suggested layouts can be loaded into the board with one tap.

import { h, plural } from "../lib/dom.js";
import { parseCard } from "../lib/cards.js";
import { trickEl } from "./table.js";

const SUITS = { S: "spades", H: "hearts", C: "clubs", D: "diamonds" };

// Display arithmetic for the board, as the rules' Scoring section states it (Ace 1, 2–9 pips,
// 10 J Q K ten; a King and Queen of one suit double the family). The server's own points
// replace it as soon as the layout is accepted.
function boardPoints(cards) {
  let sum = 0;
  for (const code of cards) {
    const { rank } = parseCard(code);
    sum += rank === "A" ? 1 : ["10", "J", "Q", "K"].includes(rank) ? 10 : Number(rank) || 0;
  }
  const kings = cards.filter((c) => parseCard(c).rank === "K").map((c) => parseCard(c).suit);
  const queens = cards.filter((c) => parseCard(c).rank === "Q").map((c) => parseCard(c).suit);
  const royal = kings.length === 1 && queens.length === 1 && kings[0] === queens[0];
  return { points: royal ? sum * 2 : sum, royal };
}

// One board per arrangement turn (keyed by the table version it was opened at).
let board = null;

function arrangeActions(ctx) {
  return ctx.legal.filter((a) => a.type === "arrange");
}

function myFamilies(ctx) {
  return (ctx.view.families?.[ctx.me] || []).map((f) => [...f.cards]);
}

function boardFor(ctx) {
  if (!board || board.version !== ctx.frame.version) {
    board = { version: ctx.frame.version, families: myFamilies(ctx), orphans: [], selected: null };
  }
  return board;
}

function placed(b) {
  return new Set([...b.families.flat(), ...b.orphans]);
}

function moveTo(b, code, zone) {
  b.families = b.families.map((f) => f.filter((c) => c !== code));
  b.orphans = b.orphans.filter((c) => c !== code);
  if (zone === "new") b.families.push([code]);
  else if (zone === "orphans") b.orphans.push(code);
  else if (typeof zone === "number" && b.families[zone]) b.families[zone].push(code);
  b.families = b.families.filter((f) => f.length);
  b.selected = null;
}

function boardView(ctx, table) {
  const b = boardFor(ctx);
  const redraw = (focusKey) => {
    table.render(table.current, false, true);
    if (focusKey) table.root.querySelector(`[data-key="${CSS.escape(focusKey)}"]`)?.focus();
  };
  const used = placed(b);
  const trickCards = (ctx.view.trick || []).map((t) => t.card).filter((c) => !used.has(c));
  const handCards = (ctx.view.hand || []).filter((c) => !used.has(c));
  // Cards of your old families that are not placed: they must go back into a family or be
  // listed as orphans (the server says so if not).
  const loose = myFamilies(ctx).flat().filter((c) => !used.has(c));

  const cardButton = (code, where) => {
    const el = ctx.card(code, { tag: "button", className: `small board-card${b.selected === code ? " selected" : ""}` });
    el.type = "button";
    el.draggable = true;
    el.dataset.key = `board:${code}`;
    el.dataset.boardCard = code;
    el.setAttribute("aria-pressed", b.selected === code ? "true" : "false");
    el.setAttribute("aria-label", `${ctx.cardName(code)}, ${where}${b.selected === code ? ", selected" : ""}`);
    el.addEventListener("click", (event) => {
      event.stopPropagation();
      const zone = el.closest("[data-zone]")?.dataset.zone;
      if (b.selected && b.selected !== code && zone && zone !== "pool") {
        moveTo(b, b.selected, zone === "orphans" ? "orphans" : Number(zone));
      } else {
        b.selected = b.selected === code ? null : code;
      }
      redraw(`board:${code}`);
    });
    el.addEventListener("dragstart", (event) => {
      event.dataTransfer.setData("text/plain", code);
      event.dataTransfer.effectAllowed = "move";
    });
    return el;
  };

  const zoneAttrs = (zone, label) => ({
    dataset: { zone: String(zone) },
    role: "group",
    "aria-label": label,
    ondragover: (event) => {
      event.preventDefault();
      event.currentTarget.classList.add("drop-hover");
    },
    ondragleave: (event) => event.currentTarget.classList.remove("drop-hover"),
    ondrop: (event) => {
      event.preventDefault();
      const code = event.dataTransfer.getData("text/plain");
      if (!code) return;
      if (zone === "pool") moveTo(b, code, null);
      else moveTo(b, code, zone === "new" || zone === "orphans" ? zone : Number(zone));
      redraw();
    },
  });

  const placeButton = (zone, text) =>
    b.selected
      ? h(
          "button.btn.small.place",
          {
            type: "button",
            "data-key": `place:${zone}`,
            dataset: { place: String(zone) },
            onclick: () => {
              if (zone === "pool") moveTo(b, b.selected, null);
              else moveTo(b, b.selected, zone === "new" || zone === "orphans" ? zone : Number(zone));
              redraw(`place:${zone}`);
            },
          },
          text,
        )
      : null;

  const families = b.families.map((cards, i) => {
    const { points, royal } = boardPoints(cards);
    return h(
      "div.board-family",
      zoneAttrs(i, `Family ${i + 1}: ${cards.map((c) => ctx.cardName(c)).join(", ")}`),
      h("div.board-family-head", {}, h("strong", {}, `Family ${i + 1}`), h("span.points", { title: "Points if the server accepts this family" }, `${points} pts${royal ? " · Royal ×2" : ""}`)),
      h("div.board-cards", {}, cards.map((c) => cardButton(c, `in family ${i + 1}`))),
      placeButton(i, `Put here`),
    );
  });
  const intro = b.selected
    ? `Selected: the ${ctx.cardName(b.selected)}. Now choose where it goes.`
    : "Tap a card, then tap where it goes — a family, a new family, the orphans or back. You can also drag cards.";
  const suggestions = arrangeActions(ctx);
  const pass = ctx.legal.find((a) => a.type === "pass");
  const layout = () => ({
    type: "arrange",
    families: b.families.filter((f) => f.length).map((f) => [...f]),
    orphans: [...b.orphans],
  });
  return h(
    "section.arrange-board",
    { "aria-labelledby": "board-title" },
    h("h2", { id: "board-title" }, "You won the trick — arrange your families"),
    h("p.small.board-intro", { role: "status" }, intro),
    h(
      "div.board-pool",
      zoneAttrs("pool", "Cards you can lay: from the trick and from your hand"),
      h("div.pool-part", {}, h("span.label", {}, "From the trick"), h("div.board-cards", {}, trickCards.length ? trickCards.map((c) => cardButton(c, "from the trick")) : h("span.muted.small", {}, "all used"))),
      h("div.pool-part", {}, h("span.label", {}, "From your hand"), h("div.board-cards", {}, handCards.length ? handCards.map((c) => cardButton(c, "from your hand")) : h("span.muted.small", {}, "all used"))),
      loose.length
        ? h("div.pool-part", {}, h("span.label", {}, "From your families"), h("div.board-cards", {}, loose.map((c) => cardButton(c, "from your families, not placed"))))
        : null,
      placeButton("pool", "Take back"),
    ),
    h(
      "div.board-families",
      {},
      families,
      h("div.board-family.new", zoneAttrs("new", "New family"), h("strong", {}, "New family"), placeButton("new", "Start a family")),
    ),
    h(
      "div.board-orphans",
      zoneAttrs("orphans", "Orphans: cards of your old families that no family can hold"),
      h("span.label", {}, "Orphans"),
      h("div.board-cards", {}, b.orphans.map((c) => cardButton(c, "an orphan"))),
      placeButton("orphans", "Make an orphan"),
    ),
    h(
      "div.board-actions",
      {},
      h("button.btn.primary", { type: "button", "data-key": "act:arrange", onclick: () => ctx.act(layout(), "board") }, "Lay out these families"),
      h(
        "button.btn",
        {
          type: "button",
          "data-key": "act:clear",
          onclick: () => {
            board = { version: ctx.frame.version, families: [], orphans: [], selected: null };
            redraw("act:clear");
          },
        },
        "Clear the board",
      ),
      h(
        "button.btn",
        {
          type: "button",
          "data-key": "act:reset",
          onclick: () => {
            board = null;
            redraw("act:reset");
          },
        },
        "Start over",
      ),
      pass ? h("button.btn.ghost", { type: "button", "data-key": "act:pass", onclick: () => ctx.act(pass, "board") }, "Pass") : null,
    ),
    h("p.action-error", { dataset: { slot: "board" }, role: "alert", hidden: true }),
    suggestions.length
      ? h(
          "details.suggestions",
          {},
          h("summary", {}, `Suggested layouts (${suggestions.length})`),
          h(
            "ul",
            {},
            suggestions.map((action, i) =>
              h(
                "li",
                {},
                h("span.small", {}, action.families.map((f) => f.map((c) => ctx.cardName(c).replace(/ of /, "")).join(" ")).join(" | ") || "(no families)"),
                h(
                  "button.btn.small",
                  {
                    type: "button",
                    "data-key": `suggest:${i}`,
                    onclick: () => {
                      board = { version: ctx.frame.version, families: action.families.map((f) => [...f]), orphans: [...(action.orphans || [])], selected: null };
                      redraw("act:arrange");
                    },
                  },
                  "Load into the board",
                ),
              ),
            ),
          ),
        )
      : null,
  );
}

function familiesEl(ctx, seat, { compact = false } = {}) {
  const families = ctx.view.families?.[seat] || [];
  if (!families.length) return compact ? null : h("p.small.muted", {}, "No families yet.");
  return h(
    "div.families",
    { "aria-label": `${ctx.name(seat)}'s families` },
    families.map((f, i) =>
      h(
        "div.family",
        { class: f.royal ? "royal" : "", "aria-label": `Family ${i + 1}${f.royal ? ", Royal" : ""}: ${f.points} points` },
        h("div.family-cards", {}, f.cards.map((c) => ctx.card(c, { className: "small" }))),
        h("span.family-points", {}, `${f.points}${f.royal ? " ♛" : ""}`),
      ),
    ),
  );
}

export default {
  name: "wifeswap",
  title: "Royal Wife-Swap",
  pack: "french",
  showsLastTrick: true,
  titles: {},

  progressLabel: "Points progression (totals plus this round's families)",
  // At the end of the match the last round's families are already in the totals.
  progress: (view) => (view.totals || []).map((t, s) => t + (view.over ? 0 : (view.round_scores?.[s] ?? 0))),

  info(ctx) {
    const v = ctx.view;
    const chips = [
      ["Round", v.rounds ? `${v.round} of ${v.rounds}` : String(v.round)],
      ["Tricks", String(v.tricks_this_round ?? 0)],
      ["Without laying", `${v.tricks_without_laying ?? 0} of 20`],
    ];
    if (!v.rounds) chips.push(["Target", String(v.target)]);
    return chips;
  },

  seatExtras(ctx, seat) {
    const v = ctx.view;
    return h(
      "span.extras",
      {},
      h("span.extra", { title: "This round's family points · match total" }, `round ${v.round_scores?.[seat] ?? 0} · total ${v.totals?.[seat] ?? 0}`),
      familiesEl(ctx, seat, { compact: true }),
    );
  },

  center(ctx, table) {
    const v = ctx.view;
    const parts = [];
    if (v.phase === "arrange" && v.trick?.length) {
      parts.push(
        trickEl(ctx, v.trick, {
          winner: v.trick_winner,
          label: "Trick won",
          caption: `${ctx.name(v.trick_winner)} won the trick${v.trick_winner === ctx.me ? "" : " and is arranging their families"}.`,
        }),
      );
    } else if (v.trick?.length) {
      parts.push(trickEl(ctx, v.trick, { label: "Trick in progress" }));
    } else if (v.last_trick?.cards?.length) {
      parts.push(lastTrickEl(ctx, v.last_trick));
    } else {
      parts.push(h("div.trick.empty", {}, h("p.muted", {}, "The trick will appear here.")));
    }
    parts.push(h("p.small", { dataset: { watch: "stock", value: String(v.stock_size) } }, `Stock: ${plural(v.stock_size ?? 0, "card")}`));
    if (ctx.canAct && v.phase === "arrange" && ctx.mode === "live") parts.push(boardView(ctx, table));
    return h("div.wifeswap-center", {}, parts);
  },

  blockedReason(ctx) {
    const v = ctx.view;
    if (v.phase === "arrange") return "Use the board above: arrange your families, or pass.";
    const led = v.trick?.[0]?.card;
    if (led) {
      const suit = SUITS[parseCard(led).suit];
      return `${suit[0].toUpperCase()}${suit.slice(1)} were led: play one of the highlighted cards.`;
    }
    return null;
  },

  summary(ctx) {
    const v = ctx.view;
    const rows = v.round_history || [];
    const mine = ctx.me !== null ? h("section.panel.summary", { "aria-label": "Your families" }, h("h2", {}, "Your families"), familiesEl(ctx, ctx.me)) : null;
    if (!rows.length) return mine;
    return h(
      "div.stack",
      {},
      mine,
      h(
        "section.panel.summary",
        { "aria-label": "Rounds" },
        h("h2", {}, "Rounds"),
        v.last_round?.reason ? h("p.small.muted", {}, `Round ${v.last_round.round} ended: ${v.last_round.reason}.`) : null,
        h(
          "table.hands-table",
          {},
          h("thead", {}, h("tr", {}, h("th", {}, "Round"), Array.from({ length: ctx.seats }, (_, s) => h("th", {}, ctx.name(s))))),
          h(
            "tbody",
            {},
            rows.map((row, i) => h("tr", {}, h("td", {}, String(i + 1)), row.map((p) => h("td", {}, String(p))))),
            h("tr.total", {}, h("td", {}, "Total"), (v.totals || []).map((p) => h("td", {}, h("strong", {}, String(p))))),
          ),
        ),
      ),
    );
  },

  describeLast(last, ctx) {
    const who = ctx.name(last.seat);
    if (last.type === "play") return last.card ? `${who} played the ${ctx.cardName(last.card)}` : `${who} played a card`;
    if (last.type === "pass") return `${who} passed`;
    if (last.type === "arrange") return `${who} arranged their families`;
    return null;
  },
};

function lastTrickEl(ctx, lastTrick) {
  return h(
    "div.trick",
    { role: "group", "aria-label": "Completed trick" },
    lastTrick.cards.map(({ seat, card }) =>
      h(
        "figure.trick-card",
        { class: seat === lastTrick.winner ? "won" : "" },
        card ? ctx.card(card) : ctx.card("", { back: true, label: "a card already drawn into a hand" }),
        h("figcaption", {}, ctx.name(seat), seat === lastTrick.winner ? h("span.crown", {}, " ★") : null),
      ),
    ),
    h("p.trick-caption", {}, `${ctx.name(lastTrick.winner)} took the trick.`),
  );
}
