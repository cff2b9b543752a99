// wifeswap-board.js — Royal Wife-Swap's arrangement board, shown to the trick winner: the
// trick's cards, their hand and their families. A card is tapped (or dragged) and then
// placed: into a family, a new family, the orphans, or back. Each family shows its points
// and the board its verdict as the server reckons them (wifeswap-layout.js asks); answers are
// written into the board in place, so a drag in progress goes on. "Lay out these families"
// sends the layout for the server to judge; the server's suggested layouts (its legal
// actions) can be loaded into the board.

import { h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { errorSlot } from "./errors.js";
import { ArrangeBoard, myFamilies } from "./wifeswap-layout.js";

/** Write the server's answer into the board on screen (no redraw: a drag goes on). */
function paintAnswer(board, section) {
  for (const el of section.querySelectorAll("[data-family-points]")) {
    el.textContent = board.pointsText(Number(el.dataset.familyPoints));
  }
  const verdict = section.querySelector(".board-verdict");
  if (verdict) {
    const [state, text] = board.verdict();
    verdict.dataset.verdict = state;
    verdict.textContent = text;
  }
}

/** A place on the board as moveTo wants it: a family's index, "new", "orphans" or null. */
function placeOf(zone) {
  if (zone === "pool") return null;
  return zone === "new" || zone === "orphans" ? zone : Number(zone);
}

/** The arrangement board for this frame (one board per table, kept across frames). */
export function arrangeBoard(ctx) {
  const board = ctx.keep("wifeswap-board", () => new ArrangeBoard());
  board.follow(ctx);
  const used = board.placed();
  const trickCards = (ctx.view.trick || []).map((play) => play.card).filter((c) => !used.has(c));
  const handCards = (ctx.view.hand || []).filter((c) => !used.has(c));
  // Cards of your old families that are not placed: they must go back into a family or be
  // listed as orphans (the server says so if not).
  const loose = myFamilies(ctx)
    .flat()
    .filter((c) => !used.has(c));

  const cardButton = (code, where) => {
    const selected = board.selected === code;
    const el = ctx.card(code, {
      tag: "button",
      className: `small board-card${selected ? " selected" : ""}`,
    });
    el.type = "button";
    el.draggable = true;
    el.dataset.key = `board:${code}`;
    el.dataset.boardCard = code;
    el.setAttribute("aria-pressed", selected ? "true" : "false");
    // Named by its content, as a hand's cards are: the card's name (its own text), then
    // where it lies; an aria-label would hide the drawn card's corner text from the name.
    const chosen = selected ? t(", selected") : "";
    el.append(h("span.sr-only", {}, `, ${where}${chosen}`));
    el.addEventListener("click", (event) => {
      event.stopPropagation();
      const zone = el.closest("[data-zone]")?.dataset.zone;
      if (board.selected && board.selected !== code && zone && zone !== "pool") {
        board.moveTo(board.selected, zone === "orphans" ? "orphans" : Number(zone));
      } else {
        board.selected = board.selected === code ? null : code;
      }
      ctx.redraw(`board:${code}`);
    });
    el.addEventListener("dragstart", (event) => {
      event.dataTransfer.setData("text/plain", code);
      event.dataTransfer.effectAllowed = "move";
    });
    return el;
  };

  const cards = (codes, where) => codes.map((c) => cardButton(c, where));

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
      board.moveTo(code, placeOf(String(zone)));
      ctx.redraw();
    },
  });

  const placeButton = (zone, text) =>
    board.selected
      ? h(
          "button.btn.small.place",
          {
            type: "button",
            "data-key": `place:${zone}`,
            dataset: { place: String(zone) },
            onclick: () => {
              board.moveTo(board.selected, placeOf(String(zone)));
              ctx.redraw(`place:${zone}`);
            },
          },
          text,
        )
      : null;

  const poolPart = (label, codes, where) =>
    h(
      "div.pool-part",
      {},
      h("span.label", {}, label),
      h(
        "div.board-cards",
        {},
        codes.length ? cards(codes, where) : h("span.muted.small", {}, t("all used")),
      ),
    );

  const families = board.families.map((codes, i) =>
    h(
      "div.board-family",
      zoneAttrs(
        i,
        t("Family {number}: {cards}", {
          number: i + 1,
          cards: codes.map((c) => ctx.cardName(c)).join(", "),
        }),
      ),
      h(
        "div.board-family-head",
        {},
        h("strong", {}, t("Family {number}", { number: i + 1 })),
        h(
          "span.points",
          {
            title: t("Points as the server reckons this layout"),
            dataset: { familyPoints: String(i) },
          },
          board.pointsText(i),
        ),
      ),
      h("div.board-cards", {}, cards(codes, t("in family {number}", { number: i + 1 }))),
      placeButton(i, t("Put here")),
    ),
  );
  const [verdictState, verdictText] = board.verdict();
  const intro = board.selected
    ? t("Selected: the {card}. Now choose where it goes.", {
        card: ctx.cardName(board.selected),
      })
    : t(
        "Tap a card, then tap where it goes — a family, a new family, the orphans or back. You can also drag cards.",
      );
  const section = h(
    "section.arrange-board",
    { "aria-labelledby": "board-title" },
    h("h2", { id: "board-title" }, t("You won the trick — arrange your families")),
    h("p.small.board-intro", { role: "status" }, intro),
    h(
      "div.board-pool",
      zoneAttrs("pool", t("Cards you can lay: from the trick and from your hand")),
      poolPart(t("From the trick"), trickCards, t("from the trick")),
      poolPart(t("From your hand"), handCards, t("from your hand")),
      loose.length
        ? h(
            "div.pool-part",
            {},
            h("span.label", {}, t("From your families")),
            h("div.board-cards", {}, cards(loose, t("from your families, not placed"))),
          )
        : null,
      placeButton("pool", t("Take back")),
    ),
    h(
      "div.board-families",
      {},
      families,
      h(
        "div.board-family.new",
        zoneAttrs("new", t("New family")),
        h("strong", {}, t("New family")),
        placeButton("new", t("Start a family")),
      ),
    ),
    h(
      "div.board-orphans",
      zoneAttrs("orphans", t("Orphans: cards of your old families that no family can hold")),
      h("span.label", {}, t("Orphans")),
      h("div.board-cards", {}, cards(board.orphans, t("an orphan"))),
      placeButton("orphans", t("Make an orphan")),
    ),
    h("p.small.board-verdict", { role: "status", dataset: { verdict: verdictState } }, verdictText),
    boardActions(ctx, board),
    errorSlot("board"),
    suggestions(ctx, board),
  );
  board.onAnswer = () => paintAnswer(board, section);
  return section;
}

function boardActions(ctx, board) {
  const pass = ctx.legal.find((a) => a.type === "pass");
  const button = (key, text, onclick, kind = "", help = null) =>
    h(
      `button.btn${kind}`,
      { type: "button", "data-key": key, dataset: help ? { help } : {}, onclick },
      text,
    );
  return h(
    "div.board-actions",
    {},
    button(
      "act:arrange",
      t("Lay out these families"),
      () => ctx.act(board.action(), "board"),
      ".primary",
      "arrange",
    ),
    button("act:clear", t("Clear the board"), () => {
      board.start(ctx, []);
      ctx.redraw("act:clear");
    }),
    button("act:reset", t("Start over"), () => {
      board.start(ctx, myFamilies(ctx));
      ctx.redraw("act:reset");
    }),
    pass ? button("act:pass", t("Pass"), () => ctx.act(pass, "board"), ".ghost", "pass") : null,
  );
}

/** The server's suggested layouts (its legal "arrange" actions), each loadable. */
function suggestions(ctx, board) {
  const layouts = ctx.legal.filter((a) => a.type === "arrange");
  if (!layouts.length) return null;
  const describe = (action) =>
    action.families
      .map((f) => f.map((c) => ctx.cardName(c).replace(/ of /, "")).join(" "))
      .join(" | ") || t("(no families)");
  return h(
    "details.suggestions",
    {},
    h("summary", {}, t("Suggested layouts ({count})", { count: layouts.length })),
    h(
      "ul",
      {},
      layouts.map((action, i) =>
        h(
          "li",
          {},
          h("span.small", {}, describe(action)),
          h(
            "button.btn.small",
            {
              type: "button",
              "data-key": `suggest:${i}`,
              onclick: () => {
                board.start(ctx, action.families, action.orphans || []);
                ctx.redraw("act:arrange");
              },
            },
            t("Load into the board"),
          ),
        ),
      ),
    ),
  );
}
