// wifeswap.js — Royal Wife-Swap's part of the table (docs/rules/wifeswap.md): the trick
// (with follow-suit highlighting from the legal plays), every player's families with their
// points, round scores and match totals, and, for the trick winner, the arrangement board:
// tap (or drag) cards from the trick, your hand and your families into families, and lay
// them out or pass. The board checks and scores nothing itself: whenever its layout changes
// it asks the server for a preview (docs/protocol.md) and shows the server's points per
// family, the total, or the server's refusal, live. The server's suggested layouts can be
// loaded into the board with one tap.

import { h, plural } from "../lib/dom.js";
import { parseCard } from "../lib/cards.js";
import { trickEl } from "./table.js";

const SUITS = { S: "spades", H: "hearts", C: "clubs", D: "diamonds" };

// One board per arrangement turn (keyed by the table version it was opened at). `wanted` is
// the layout (as JSON) the board shows now; `answer` the server's preview of a layout.
let board = null;

// Previews of the board's layout: asked PREVIEW_DELAY_MS after the last change, one question
// at a time; an answer counts only for the board version and the request it was asked for.
// A question that gets no answer (a refused message, a reconnect) is given up after a while.
const PREVIEW_DELAY_MS = 150;
const PREVIEW_TIMEOUT_MS = 5000;
const preview = {
  seq: 0, // request counter
  inflight: null, // { seq, version, key, timer } of the question awaiting its answer
  timer: null, // the debounce timer
  socket: null, // the socket whose answers are listened to
  table: null, // the table showing the board
};

function layoutOf(b) {
  return {
    type: "arrange",
    families: b.families.filter((f) => f.length).map((f) => [...f]),
    orphans: [...b.orphans],
  };
}

function schedulePreview(table) {
  preview.table = table;
  clearTimeout(preview.timer);
  preview.timer = setTimeout(askServer, PREVIEW_DELAY_MS);
}

function askServer() {
  preview.timer = null;
  const b = board;
  // One question at a time: its answer asks again if the layout has changed meanwhile.
  if (!b || preview.inflight || b.answer?.key === b.wanted) return;
  if (preview.table?.current?.version !== b.version) return; // the table has moved on
  const socket = window.parlourSocket;
  if (!socket) return;
  if (preview.socket !== socket) {
    socket.onPreview(onPreviewAnswer);
    preview.socket = socket;
  }
  const key = b.wanted;
  if (!socket.preview(b.version, JSON.parse(key))) {
    b.answer = { key, offline: true };
    paintAnswer(b);
    return;
  }
  const seq = ++preview.seq;
  const timer = setTimeout(() => {
    if (preview.inflight?.seq !== seq) return;
    preview.inflight = null;
    askServer();
  }, PREVIEW_TIMEOUT_MS);
  preview.inflight = { seq, version: b.version, key, timer };
}

function onPreviewAnswer(message) {
  const asked = preview.inflight;
  if (!asked) return; // a late answer to a question already given up
  clearTimeout(asked.timer);
  preview.inflight = null;
  const b = board;
  if (!b || b.version !== asked.version || message.version !== asked.version) return;
  b.answer = message.ok
    ? { key: asked.key, ok: true, result: message.result }
    : { key: asked.key, ok: false, message: message.message };
  paintAnswer(b);
  if (b.wanted !== asked.key && !preview.timer) askServer();
}

// The server's answer for the layout on the board now, or null while it is being asked.
function currentAnswer(b) {
  return b.answer && b.answer.key === b.wanted ? b.answer : null;
}

function familyPointsText(b, i) {
  const answer = currentAnswer(b);
  if (!answer || answer.offline) return "…";
  if (!answer.ok) return "—";
  const family = answer.result.families?.[i];
  if (!family) return "—";
  return `${family.points} pts${family.royal ? " · Royal ×2" : ""}`;
}

function verdictOf(b) {
  const answer = currentAnswer(b);
  if (!answer) return ["checking", "Checking this layout with the server…"];
  if (answer.offline) return ["offline", "Offline: the layout will be checked once the connection is back."];
  if (!answer.ok) return ["refused", answer.message];
  const { total, orphans } = answer.result;
  const extra = orphans?.length ? `, ${plural(orphans.length, "orphan")}` : "";
  return ["ok", `The server accepts this layout: ${total} pts in families${extra}.`];
}

// Write a newly arrived answer into the board in place (no re-render: a drag goes on).
function paintAnswer(b) {
  const root = preview.table?.root?.querySelector(".arrange-board");
  if (!root || b !== board) return;
  for (const el of root.querySelectorAll("[data-family-points]")) {
    el.textContent = familyPointsText(b, Number(el.dataset.familyPoints));
  }
  const verdict = root.querySelector(".board-verdict");
  if (verdict) {
    const [state, text] = verdictOf(b);
    verdict.dataset.verdict = state;
    verdict.textContent = text;
  }
}

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
  const wanted = JSON.stringify(layoutOf(b));
  if (b.wanted !== wanted) {
    b.wanted = wanted;
    schedulePreview(table);
  }
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

  const families = b.families.map((cards, i) =>
    h(
      "div.board-family",
      zoneAttrs(i, `Family ${i + 1}: ${cards.map((c) => ctx.cardName(c)).join(", ")}`),
      h("div.board-family-head", {}, h("strong", {}, `Family ${i + 1}`), h("span.points", { title: "Points as the server reckons this layout", dataset: { familyPoints: String(i) } }, familyPointsText(b, i))),
      h("div.board-cards", {}, cards.map((c) => cardButton(c, `in family ${i + 1}`))),
      placeButton(i, `Put here`),
    ),
  );
  const [verdictState, verdictText] = verdictOf(b);
  const intro = b.selected
    ? `Selected: the ${ctx.cardName(b.selected)}. Now choose where it goes.`
    : "Tap a card, then tap where it goes — a family, a new family, the orphans or back. You can also drag cards.";
  const suggestions = arrangeActions(ctx);
  const pass = ctx.legal.find((a) => a.type === "pass");
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
    h("p.small.board-verdict", { role: "status", dataset: { verdict: verdictState } }, verdictText),
    h(
      "div.board-actions",
      {},
      h("button.btn.primary", { type: "button", "data-key": "act:arrange", onclick: () => ctx.act(layoutOf(b), "board") }, "Lay out these families"),
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
