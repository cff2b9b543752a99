// hand.js — your hand: one button per card, what each card can do now (only what the
// server's legal actions offer), cards that cannot be played dimmed with the reason on
// hover and focus, a choice menu when a card allows several plays, and the keyboard: a
// roving tabindex over the cards (arrow keys, Home, End; Enter plays). The cards overlap
// to fit the width, in as many even rows as keep each card's corner readable.

import { h, listWords } from "../lib/dom.js";
import { t } from "../lib/i18n.js";

const GAP_PX = 6;

/** The play action for a card, if the server lists one. */
function defaultCardAction(ctx, code) {
  return ctx.legal.find((a) => a.type === "play" && a.card === code) || null;
}

export class Hand {
  /**
   * @param {HTMLElement} root the table's element
   * @param {{game: object, showError: (message: string, slot: string) => void,
   *   redraw: (focusKey?: string) => void}} table
   */
  constructor(root, { game, showError, redraw }) {
    this.root = root;
    this.game = game;
    this.showError = showError;
    this.redraw = redraw;
    this.menu = null; // the card whose choice menu is open
    this.menuVersion = null;
    this.resizeObserver = new ResizeObserver(() => this.layout());
    root.addEventListener("keydown", (event) => this.onKeyDown(event));
  }

  /** A new version is shown: an open choice menu belongs to the old one. */
  newVersion() {
    this.menu = null;
  }

  /** What a hand card can do now: [{action, label}] from the legal actions (no rules). */
  cardOptions(ctx, code) {
    if (!ctx.canAct) return [];
    if (this.game.cardActions) return this.game.cardActions(ctx, code);
    const action = (this.game.cardAction || defaultCardAction)(ctx, code);
    if (!action) return [];
    const verb = this.game.verb ? this.game.verb(ctx, action) : t("Play");
    return [{ action, label: verb }];
  }

  /** Why a card cannot be played — from the view alone (whose turn, the phase's message). */
  blockedReason(ctx, code) {
    const { view } = ctx;
    if (view.over) return t("The match is over.");
    if (ctx.mode !== "live") return "";
    const toAct = view.to_act || [];
    if (!toAct.includes(ctx.me)) {
      return toAct.length
        ? t("Not your turn: waiting for {names}.", {
            names: listWords(toAct.map((s) => ctx.name(s))),
          })
        : t("Not your turn.");
    }
    const reason = this.game.blockedReason ? this.game.blockedReason(ctx, code) : null;
    return reason || t("This card is not among your legal plays now.");
  }

  /** The hand, its choice menu (if open) and the keyboard help. */
  element(ctx) {
    const hand = ctx.view.hand || [];
    const options = hand.map((code) => this.cardOptions(ctx, code));
    const focusable = Math.max(
      0,
      options.findIndex((o) => o.length),
    );
    const el = h("div.hand", {
      role: "group",
      "aria-labelledby": "hand-title",
      "aria-describedby": "hand-help",
      style: { "--n": String(hand.length) },
    });
    const stale =
      !ctx.canAct || !hand.includes(this.menu) || this.menuVersion !== ctx.frame.version;
    if (this.menu && stale) this.menu = null;
    hand.forEach((code, index) => {
      el.append(this.cardButton(ctx, code, options[index], index === focusable, index));
    });
    if (!hand.length) {
      el.append(h("p.muted.empty-hand", {}, ctx.view.over ? "" : t("No cards in hand.")));
    }
    const menu = this.menu ? this.menuEl(ctx, this.menu, options[hand.indexOf(this.menu)]) : null;
    return h(
      "div.hand-wrap",
      {},
      el,
      menu,
      h(
        "p.sr-only",
        { id: "hand-help" },
        t("Use the left and right arrow keys to move between cards, Enter to play."),
      ),
    );
  }

  cardButton(ctx, code, choices, focusable, index) {
    const count = (ctx.view.hand || []).length;
    const playable = choices.length > 0;
    const reason = playable ? null : this.blockedReason(ctx, code);
    const name = ctx.cardName(code);
    const note = this.game.cardNote ? this.game.cardNote(ctx, code, choices) : null;
    const classes = [playable ? "playable" : "blocked"];
    if (index >= count / 2) classes.push("tip-end");
    if (this.menu === code) classes.push("chosen");
    const card = ctx.card(code, { tag: "button", className: classes.join(" ") });
    card.type = "button";
    card.dataset.key = `hand:${code}`;
    card.tabIndex = focusable ? 0 : -1;
    let label;
    if (!playable) label = `${name}. ${reason}`;
    else if (choices.length === 1)
      label = t("{verb} the {card}", { verb: choices[0].label, card: name });
    else
      label = t("{card}: {choices}. Press Enter to choose.", {
        card: name,
        choices: choices.map((c) => c.label).join(", "),
      });
    if (note) label += ` ${note}`;
    // The button is named by its own text (the face is a hidden picture), so what a screen
    // reader says and what speech control hears are the same words.
    card.querySelector(".card-name").textContent = label;
    if (choices.length > 1) card.setAttribute("aria-haspopup", "true");
    if (!playable) {
      card.setAttribute("aria-disabled", "true");
      card.dataset.reason = note ? `${reason} ${note}` : reason;
      card.title = card.dataset.reason;
    } else if (note) {
      card.title = note;
    }
    card.addEventListener("click", () => {
      if (!playable) this.showError(reason, "hand");
      else if (choices.length === 1) ctx.act(choices[0].action, "hand");
      else this.openMenu(code, ctx);
    });
    return card;
  }

  /** A card with several possible plays: the choices, as buttons under the hand. */
  openMenu(code, ctx) {
    this.menu = code;
    this.menuVersion = ctx.frame.version;
    this.redraw();
    this.root.querySelector(".choice-menu .btn")?.focus();
  }

  closeMenu() {
    const code = this.menu;
    this.menu = null;
    this.redraw(code ? `hand:${code}` : null);
  }

  menuEl(ctx, code, choices) {
    return h(
      "div.choice-menu",
      {
        role: "group",
        "aria-label": t("Ways to play the {card}", { card: ctx.cardName(code) }),
        onkeydown: (event) => {
          if (event.key === "Escape") {
            event.preventDefault();
            this.closeMenu();
          }
        },
      },
      h(
        "span.choice-title",
        {},
        ctx.card(code, { className: "small" }),
        h("span", {}, t("The {card}:", { card: ctx.cardName(code) })),
      ),
      choices.map((choice, i) =>
        h(
          "button.btn.primary.small",
          {
            type: "button",
            "data-key": `menu:${i}`,
            // What the action means, from the game's rules (help.js).
            dataset: { kind: choice.kind || choice.action.type, help: choice.action.type },
            onclick: () => {
              this.menu = null;
              ctx.act(choice.action, "hand");
            },
          },
          choice.label,
        ),
      ),
      h(
        "button.btn.ghost.small",
        { type: "button", "data-key": "menu:cancel", onclick: () => this.closeMenu() },
        t("Cancel"),
      ),
    );
  }

  /**
   * After a redraw: follow the new hand's size and lay its cards out — `now` after the
   * first drawing (an animation is about to measure where the cards are, and a page being
   * read must never show a hand unlaid); the first drawing's just before the browser draws
   * the frame, so that the layout it needs is the frame's own rather than one forced in the
   * middle of building the table (on a phone, the first drawing would otherwise be one
   * long task).
   */
  attach({ now = true } = {}) {
    this.resizeObserver.disconnect();
    const hand = this.root.querySelector(".hand");
    if (hand) this.resizeObserver.observe(hand);
    if (now) this.layout();
    else requestAnimationFrame(() => this.layout());
  }

  layout() {
    const hand = this.root.querySelector(".hand");
    if (!hand) return;
    const cards = [...hand.querySelectorAll(".card")];
    const n = cards.length;
    if (n < 2) {
      hand.style.setProperty("--overlap", "0px");
      return;
    }
    const style = getComputedStyle(hand);
    const width = hand.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    // The layout width: a card flying in (animation.js) is scaled, and must not count so.
    const cardWidth = cards[0].offsetWidth || 64;
    const natural = n * cardWidth + (n - 1) * GAP_PX;
    let overlap = -GAP_PX;
    let rows = 1;
    if (natural > width) {
      // As few rows as keep at least 45% of every card visible (its corner index), each row
      // as full as the others; a pixel to spare so that rounding never drops a card.
      for (;;) {
        const perRow = Math.ceil(n / rows);
        overlap = perRow > 1 ? (perRow * cardWidth - (width - 2)) / (perRow - 1) : -GAP_PX;
        if (cardWidth - overlap >= cardWidth * 0.45 || rows >= 4) break;
        rows += 1;
      }
    }
    const wrap = rows > 1;
    const perRow = Math.ceil(n / rows);
    if (wrap) hand.style.setProperty("--per-row", String(perRow));
    // The first card of each row does not overlap the row before's last (off the left edge).
    for (const [i, card] of cards.entries()) {
      card.classList.toggle("row-start", wrap && i % perRow === 0);
    }
    hand.classList.toggle("wrapped", wrap);
    hand.style.setProperty("--overlap", `${Math.max(-GAP_PX, overlap)}px`);
  }

  /** Where the focus is before a redraw: its data-key, and its place when in the hand. */
  focusBefore() {
    const active = document.activeElement;
    const key = active?.closest?.("[data-key]")?.dataset.key;
    const index = active?.closest?.(".hand")
      ? [...this.root.querySelectorAll(".hand [data-key]")].findIndex(
          (el) => el.dataset.key === key,
        )
      : -1;
    return { key, index };
  }

  /** Put the focus back on the same control, or on the card now in the same place. */
  restoreFocus({ key, index }) {
    if (!key) return;
    let target = this.root.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (!target && index >= 0) {
      const cards = [...this.root.querySelectorAll(".hand [data-key]")];
      target = cards[Math.min(index, cards.length - 1)];
    }
    if (!target) return;
    if (target.closest(".hand")) {
      for (const card of this.root.querySelectorAll(".hand .card")) card.tabIndex = -1;
      target.tabIndex = 0;
    }
    target.focus({ preventScroll: true });
  }

  onKeyDown(event) {
    const card = event.target.closest?.(".hand .card");
    if (!card) return;
    const cards = [...this.root.querySelectorAll(".hand .card")];
    const index = cards.indexOf(card);
    let next = null;
    if (event.key === "ArrowRight" || event.key === "ArrowDown") {
      next = cards[(index + 1) % cards.length];
    } else if (event.key === "ArrowLeft" || event.key === "ArrowUp") {
      next = cards[(index - 1 + cards.length) % cards.length];
    } else if (event.key === "Home") {
      next = cards[0];
    } else if (event.key === "End") {
      next = cards[cards.length - 1];
    }
    if (!next) return;
    event.preventDefault();
    for (const c of cards) c.tabIndex = -1;
    next.tabIndex = 0;
    next.focus();
  }
}
