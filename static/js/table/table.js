// table.js — the card table shared by every game. It renders what the server sent (the
// seat's view and its legal actions) and nothing else: no rules live here (DESIGN.md §9,
// "chessground"). A game module (cupid.js, coins.js, ...) supplies the game's own parts
// (centre of the table, extra buttons, summaries); this module does the rest: players
// around the table, your hand with keyboard support, whose turn it is, the completed
// trick, scores, the result, live announcements, errors next to the action that caused
// them, and a short animation for every change (FLIP by card code).

import { announce, h, listWords, plural, reducedMotion } from "../lib/dom.js";
import { backsEl, cardEl, cardName } from "../lib/cards.js";

// Each pushed change stays on screen at least this long, so a burst of moves (computer
// players) can be followed; localStorage "parlour-pace" (milliseconds) changes it.
const MIN_FRAME_MS = (() => {
  const stored = Number(globalThis.localStorage?.getItem("parlour-pace"));
  return Number.isFinite(stored) && stored >= 0 && localStorage.getItem("parlour-pace") !== null ? stored : 320;
})();
const ANIM_MS = 340;

export class Table {
  /**
   * @param {HTMLElement} root where the table is drawn
   * @param {object} game the game module (see cupid.js)
   * @param {object} options {mode: "live"|"review", onAct(action, slot), onRematch, ...}
   */
  constructor(root, game, options = {}) {
    this.root = root;
    this.game = game;
    this.options = options;
    this.mode = options.mode || "live";
    this.queue = [];
    this.lastFrameAt = 0;
    this.timer = null;
    this.current = null;
    this.pendingSlot = null;
    this.log = [];
    this.lastSummaryKey = null;
    this.errorTimer = null;
    this.resizeObserver = new ResizeObserver(() => this.layoutHand());
    root.addEventListener("keydown", (event) => this.onKeyDown(event));
  }

  /** Queue a frame {room, view, version, seat, event, hands?}; frames are shown in order. */
  push(frame) {
    this.queue.push(frame);
    this.drain();
  }

  /** Show a frame now (review stepping), without the queue's pacing. */
  show(frame, { animate = true } = {}) {
    this.queue = [];
    this.render(frame, animate);
  }

  /** The latest room description changed (names, presence): redraw the current frame. */
  updateRoom(room) {
    if (!this.current) return;
    // Every action bumps the room's version; redraw only for what the table shows of the
    // room (names, presence, computer players, the rematch), never under a pointer for nothing.
    const shown = (r) =>
      JSON.stringify([r?.seats, r?.rematch_id, r?.status, r?.watchers, r?.match_id]);
    const changed = shown(room) !== shown(this.current.room);
    this.current = { ...this.current, room };
    for (const frame of this.queue) frame.room = room;
    if (changed && !this.queue.length) this.render(this.current, false, true);
  }

  drain() {
    if (this.timer || !this.queue.length) return;
    const wait = this.lastFrameAt + MIN_FRAME_MS - performance.now();
    if (wait > 0 && this.current) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.drain();
      }, wait);
      return;
    }
    // Skip frames that are already superseded by a newer version of the same seat.
    let frame = this.queue.shift();
    while (this.queue.length > 3) frame = this.queue.shift();
    this.render(frame, true);
    this.lastFrameAt = performance.now();
    if (this.queue.length) this.drain();
  }

  // --- context --------------------------------------------------------------------------

  context(frame) {
    const { room, view } = frame;
    const me = frame.seat ?? null;
    const seats = view.seats ?? room?.seat_count ?? view.hand_sizes?.length ?? 2;
    const name = (seat) => {
      if (seat === null || seat === undefined) return "";
      const holder = room?.seats?.[seat];
      return holder?.name || `Seat ${seat + 1}`;
    };
    const who = (seat) => (seat === me ? "You" : name(seat));
    const game = this.game;
    return {
      frame,
      view,
      room,
      me,
      seats,
      pack: game.pack,
      titles: game.titles || {},
      mode: this.mode,
      name,
      who,
      // Server messages say "Seat 2"; show the player's name instead.
      words: (text) =>
        String(text || "").replace(/\bSeat (\d+)\b/g, (_m, n) => name(Number(n) - 1)),
      card: (code, opts = {}) => cardEl(code, game.pack, { titles: game.titles || {}, ...opts }),
      cardName: (code) => cardName(code, game.pack, game.titles || {}),
      legal: view.legal_actions || [],
      canAct: this.mode === "live" && me !== null && (view.to_act || []).includes(me),
      act: (action, slot, origin) => this.act(action, slot, origin),
      hands: frame.hands || null,
    };
  }

  // --- acting ---------------------------------------------------------------------------

  act(action, slot = "actions") {
    if (this.mode !== "live" || this.pendingSlot) return;
    this.clearErrors();
    this.pendingSlot = slot;
    this.root.classList.add("pending");
    const sent = this.options.onAct?.(action, this.current?.version);
    if (sent === false) {
      this.pendingSlot = null;
      this.root.classList.remove("pending");
      this.showError("You are offline; the move was not sent. Reconnecting…", slot);
    }
  }

  /** A refusal from the server: shown in words next to the action that caused it. */
  serverError(message) {
    const slot = this.pendingSlot || "general";
    this.pendingSlot = null;
    this.root.classList.remove("pending");
    this.showError(message, slot);
    announce(message, true);
  }

  showError(message, slot = "general") {
    this.clearErrors();
    const target =
      this.root.querySelector(`.action-error[data-slot="${slot}"]`) ||
      this.root.querySelector('.action-error[data-slot="general"]');
    if (!target) return;
    target.textContent = message;
    target.hidden = false;
    clearTimeout(this.errorTimer);
    this.errorTimer = setTimeout(() => this.clearErrors(), 9000);
  }

  clearErrors() {
    for (const el of this.root.querySelectorAll(".action-error")) {
      el.hidden = true;
      el.textContent = "";
    }
  }

  // --- rendering ------------------------------------------------------------------------

  render(frame, animate = true, quiet = false) {
    const previous = this.current;
    const ctx = this.context(frame);
    const view = frame.view;
    const errors = [...this.root.querySelectorAll(".action-error:not([hidden])")].map((el) => [
      el.dataset.slot,
      el.textContent,
    ]);
    const before = animate && !reducedMotion() ? this.snapshot() : null;
    const focusKey = document.activeElement?.closest?.("[data-key]")?.dataset.key;
    const focusIndex = document.activeElement?.closest?.(".hand")
      ? [...this.root.querySelectorAll(".hand [data-key]")].findIndex(
          (el) => el.dataset.key === focusKey,
        )
      : -1;

    if (!quiet) {
      this.pendingSlot = null;
      this.root.classList.remove("pending");
    }
    this.current = frame;
    if (!quiet && frame.version !== previous?.version) {
      this.remember(ctx, previous);
      this.menu = null;
    }

    const table = h(
      "div.table",
      {
        dataset: {
          game: view.game,
          version: String(frame.version ?? ""),
          phase: view.phase || "",
          seat: me(ctx),
        },
        class: ctx.canAct ? "my-turn" : "",
      },
      this.bar(ctx),
      h(
        "div.felt",
        {},
        h("div.opponents", { role: "list", "aria-label": "Players" }, this.plates(ctx)),
        h(
          "div.table-center",
          {},
          this.turnBanner(ctx),
          this.game.center ? this.game.center(ctx, this) : null,
          h("p.action-error", { dataset: { slot: "center" }, role: "alert", hidden: true }),
        ),
      ),
      this.mine(ctx),
      h(
        "div.side",
        {},
        this.result(ctx),
        this.game.showsLastTrick ? null : this.lastTrick(ctx),
        this.game.summary ? this.game.summary(ctx, this) : null,
        this.logPanel(ctx),
        this.about(ctx),
      ),
      h("p.action-error.general", { dataset: { slot: "general" }, role: "alert", hidden: true }),
    );
    this.root.replaceChildren(table);
    this.root.setAttribute("aria-busy", "false");
    for (const [slot, text] of errors) {
      if (quiet) this.showError(text, slot);
    }
    this.resizeObserver.disconnect();
    const hand = this.root.querySelector(".hand");
    if (hand) this.resizeObserver.observe(hand);
    this.layoutHand();
    this.restoreFocus(focusKey, focusIndex);
    if (before) this.animate(before, ctx, previous);
    if (!quiet) {
      this.announceChanges(ctx, previous);
      this.options.onRender?.(ctx);
    }
  }

  /** Keep a short log of what happened, from each view's public "last". */
  remember(ctx, previous) {
    const last = ctx.view.last;
    if (!last || !previous) return;
    const line = this.game.describeLast ? this.game.describeLast(last, ctx) : null;
    if (line) {
      this.log.unshift({ version: ctx.frame.version, text: line });
      this.log = this.log.slice(0, 40);
    }
  }

  bar(ctx) {
    const { view } = ctx;
    const info = this.game.info ? this.game.info(ctx) : [];
    return h(
      "header.table-bar",
      {},
      h(
        "div.table-title",
        {},
        h("h1", {}, ctx.room?.title || this.game.title),
        this.mode === "live" && ctx.me === null
          ? h("span.badge.watching", {}, "Watching")
          : null,
        this.mode === "live" && ctx.room?.code
          ? h("span.badge.room-code", { title: "Room code" }, ctx.room.code)
          : null,
      ),
      h(
        "ul.info-chips",
        { "aria-label": "Match" },
        info.map(([label, value]) =>
          h("li.chip", {}, h("span.chip-label", {}, label), " ", h("strong", {}, value)),
        ),
      ),
      h(
        "ol.scoreboard",
        { "aria-label": "Scores" },
        Array.from({ length: ctx.seats }, (_, seat) =>
          h(
            "li.score",
            {
              class: [
                (view.to_act || []).includes(seat) ? "to-act" : "",
                (view.winners || []).includes(seat) ? "winner" : "",
                seat === ctx.me ? "mine" : "",
              ].join(" "),
              dataset: { seat: String(seat) },
            },
            h("span.score-name", {}, ctx.name(seat)),
            h("strong.score-value", { dataset: { score: String(seat) } }, view.scores?.[seat] ?? 0),
          ),
        ),
      ),
    );
  }

  /** Everyone but me, clockwise from my left (seat + 1 is on seat's left). */
  plates(ctx) {
    const order = [];
    const base = ctx.me ?? 0;
    const start = ctx.me === null ? 0 : 1;
    for (let k = start; k < ctx.seats; k += 1) order.push((base + k) % ctx.seats);
    return order.map((seat) => this.plate(ctx, seat));
  }

  plate(ctx, seat) {
    const { view, room } = ctx;
    const holder = room?.seats?.[seat];
    const toAct = (view.to_act || []).includes(seat);
    const size = view.hand_sizes?.[seat] ?? 0;
    const shownHand = ctx.hands?.[seat];
    const status = [];
    if (toAct && !view.over) status.push("to play");
    if (view.dealer === seat) status.push("dealer");
    if (holder?.bot) status.push("computer");
    else if (holder && this.mode === "live" && !holder.connected) status.push("away");
    const label = `${ctx.name(seat)}${seat === ctx.me ? " (you)" : ""}: ${plural(size, "card")}, ${view.scores?.[seat] ?? 0} points${status.length ? `, ${status.join(", ")}` : ""}`;
    return h(
      "div.plate",
      {
        role: "listitem",
        "aria-label": label,
        dataset: { seat: String(seat) },
        class: [
          toAct && !view.over ? "to-act" : "",
          (view.winners || []).includes(seat) ? "winner" : "",
          holder && this.mode === "live" && !holder.connected && !holder.bot ? "away" : "",
        ].join(" "),
      },
      h(
        "div.plate-head",
        {},
        h("span.avatar", { "aria-hidden": "true", class: holder?.bot ? "bot" : "" }, ctx.name(seat).slice(0, 1)),
        h(
          "span.plate-name",
          {},
          ctx.name(seat),
          seat === ctx.me ? h("span.muted", {}, " (you)") : null,
        ),
        view.dealer === seat ? h("span.dealer-chip", { title: "Dealer" }, "D") : null,
        holder && this.mode === "live" && !holder.bot
          ? h("span.presence", {
              class: holder.connected ? "on" : "off",
              title: holder.connected ? "Connected" : "Away",
            })
          : null,
      ),
      shownHand
        ? h(
            "div.open-hand",
            { "aria-label": `${ctx.name(seat)}'s hand` },
            shownHand.map((code) => ctx.card(code, { className: "small" })),
          )
        : h("div.plate-hand", { "aria-hidden": "true", dataset: { watch: `size:${seat}`, value: String(size) } }, backsEl(size)),
      h(
        "div.plate-foot",
        {},
        h("span.plate-score", {}, h("strong", { dataset: { score: String(seat) } }, view.scores?.[seat] ?? 0), " pts"),
        this.game.seatExtras ? this.game.seatExtras(ctx, seat) : null,
        toAct && !view.over ? h("span.turn-chip", {}, seat === ctx.me ? "Your turn" : "To play") : null,
      ),
      this.replaceButton(ctx, seat, holder),
    );
  }

  /** The host may let a computer finish for a player who has gone (DESIGN.md §4). */
  replaceButton(ctx, seat, holder) {
    if (this.mode !== "live" || !this.options.onReplace || !this.options.isHost?.()) return null;
    if (!holder || holder.bot || holder.connected || seat === ctx.me || ctx.view.over) return null;
    return h(
      "button.btn.small.replace",
      {
        type: "button",
        "data-key": `replace:${seat}`,
        onclick: () => this.options.onReplace(seat),
      },
      `Let a computer play for ${ctx.name(seat)}`,
    );
  }

  turnBanner(ctx) {
    const { view } = ctx;
    const toAct = view.to_act || [];
    let headline;
    if (view.over) {
      const winners = (view.winners || []).map((s) => ctx.who(s));
      headline = winners.length ? `${listWords(winners)} ${winners.length === 1 && winners[0] !== "You" ? "wins" : "win"}!` : "The match is over";
    } else if (ctx.me !== null && toAct.includes(ctx.me)) {
      headline = toAct.length > 1 ? "Your move (everyone chooses at once)" : "Your turn";
    } else if (toAct.length) {
      headline = `Waiting for ${listWords(toAct.map((s) => ctx.name(s)))}`;
    } else {
      headline = "";
    }
    return h(
      "div.turn-banner",
      { class: ctx.canAct ? "mine" : view.over ? "over" : "" },
      h("strong.turn-headline", {}, headline),
      view.message ? h("span.turn-message", {}, ctx.words(view.message)) : null,
    );
  }

  /** My seat: my plate, my hand (or, for a spectator, nothing hidden), my extra actions. */
  mine(ctx) {
    const { view } = ctx;
    if (ctx.me === null) {
      if (this.mode === "review") return null;
      return h(
        "div.mine.spectator",
        {},
        h("p.muted", {}, "You are watching. Hands stay hidden; you see what every player sees on the table."),
      );
    }
    const hand = view.hand || [];
    const actions = this.game.actions ? this.game.actions(ctx, this) : null;
    return h(
      "div.mine",
      {},
      this.plate(ctx, ctx.me),
      h(
        "div.hand-area",
        {},
        h("h2.sr-only", { id: "hand-title" }, "Your hand"),
        this.handEl(ctx, hand),
        h("p.action-error", { dataset: { slot: "hand" }, role: "alert", hidden: true }),
        actions
          ? h(
              "div.actions",
              { role: "group", "aria-label": "Actions" },
              actions,
              h("p.action-error", { dataset: { slot: "actions" }, role: "alert", hidden: true }),
            )
          : null,
      ),
    );
  }

  /** What a hand card can do now: [{action, label}] from the legal actions (no rules). */
  cardOptions(ctx, code) {
    if (!ctx.canAct) return [];
    if (this.game.cardActions) return this.game.cardActions(ctx, code);
    const cardAction = this.game.cardAction || defaultCardAction;
    const action = cardAction(ctx, code);
    if (!action) return [];
    const verb = this.game.verb ? this.game.verb(ctx, action) : "Play";
    return [{ action, label: verb }];
  }

  handEl(ctx, hand) {
    const { view } = ctx;
    const options = hand.map((code) => this.cardOptions(ctx, code));
    const focusable = Math.max(0, options.findIndex((o) => o.length));
    const el = h("div.hand", {
      role: "group",
      "aria-labelledby": "hand-title",
      "aria-describedby": "hand-help",
      style: { "--n": String(hand.length) },
    });
    if (this.menu && (!ctx.canAct || !hand.includes(this.menu) || this.menuVersion !== ctx.frame.version)) {
      this.menu = null;
    }
    hand.forEach((code, index) => {
      const choices = options[index];
      const playable = choices.length > 0;
      const reason = playable ? null : this.blockedReason(ctx, code);
      const name = ctx.cardName(code);
      const note = this.game.cardNote ? this.game.cardNote(ctx, code, choices) : null;
      const card = ctx.card(code, {
        tag: "button",
        className: `${playable ? "playable" : "blocked"}${index >= hand.length / 2 ? " tip-end" : ""}${this.menu === code ? " chosen" : ""}`,
      });
      card.type = "button";
      card.dataset.key = `hand:${code}`;
      card.tabIndex = index === focusable ? 0 : -1;
      let label;
      if (!playable) label = `${name}. ${reason}`;
      else if (choices.length === 1) label = `${choices[0].label} the ${name}`;
      else label = `${name}: ${choices.map((c) => c.label).join(", ")}. Press Enter to choose.`;
      if (note) label += ` ${note}`;
      card.setAttribute("aria-label", label);
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
      el.append(card);
    });
    if (!hand.length) el.append(h("p.muted.empty-hand", {}, view.over ? "" : "No cards in hand."));
    const menu = this.menu ? this.menuEl(ctx, this.menu, options[hand.indexOf(this.menu)]) : null;
    return h(
      "div.hand-wrap",
      {},
      el,
      menu,
      h(
        "p.sr-only",
        { id: "hand-help" },
        "Use the left and right arrow keys to move between cards, Enter to play.",
      ),
    );
  }

  /** A card with several possible plays: the choices, as buttons under the hand. */
  openMenu(code, ctx) {
    this.menu = code;
    this.menuVersion = ctx.frame.version;
    this.render(this.current, false, true);
    this.root.querySelector(".choice-menu .btn")?.focus();
  }

  closeMenu(focusCard = true) {
    const code = this.menu;
    this.menu = null;
    this.render(this.current, false, true);
    if (focusCard && code) this.root.querySelector(`[data-key="hand:${CSS.escape(code)}"]`)?.focus();
  }

  menuEl(ctx, code, choices) {
    return h(
      "div.choice-menu",
      {
        role: "group",
        "aria-label": `Ways to play the ${ctx.cardName(code)}`,
        onkeydown: (event) => {
          if (event.key === "Escape") {
            event.preventDefault();
            this.closeMenu();
          }
        },
      },
      h("span.choice-title", {}, ctx.card(code, { className: "small" }), h("span", {}, `The ${ctx.cardName(code)}:`)),
      choices.map((choice, i) =>
        h(
          "button.btn.primary.small",
          {
            type: "button",
            "data-key": `menu:${i}`,
            dataset: { kind: choice.kind || choice.action.type },
            title: choice.help || "",
            onclick: () => {
              this.menu = null;
              ctx.act(choice.action, "hand");
            },
          },
          choice.label,
        ),
      ),
      h("button.btn.ghost.small", { type: "button", "data-key": "menu:cancel", onclick: () => this.closeMenu() }, "Cancel"),
    );
  }

  /** Why a card cannot be played — from the view alone (whose turn, the phase's message). */
  blockedReason(ctx, code) {
    const { view } = ctx;
    if (view.over) return "The match is over.";
    if (this.mode !== "live") return "";
    const toAct = view.to_act || [];
    if (!toAct.includes(ctx.me)) {
      return toAct.length ? `Not your turn: waiting for ${listWords(toAct.map((s) => ctx.name(s)))}.` : "Not your turn.";
    }
    if (this.game.blockedReason) {
      const reason = this.game.blockedReason(ctx, code);
      if (reason) return reason;
    }
    return "This card is not among your legal plays now.";
  }

  lastTrick(ctx) {
    const info = ctx.view.last_trick;
    if (!info || !info.cards?.length) return null;
    return h(
      "section.panel.last-trick",
      { "aria-label": "Last trick" },
      h("h2", {}, "Last trick"),
      h(
        "div.mini-trick",
        {},
        info.cards.map(({ seat, card }) =>
          h(
            "figure.mini-card",
            { class: seat === info.winner ? "won" : "" },
            ctx.card(card, { className: "small" }),
            h("figcaption", {}, ctx.name(seat)),
          ),
        ),
      ),
      h(
        "p",
        {},
        h("strong", {}, ctx.name(info.winner)),
        ` took it for ${plural(info.points ?? 0, "point")}.`,
      ),
    );
  }

  /** The table's options, a link to the rules and, live, a link for friends to watch. */
  about(ctx) {
    const { room } = ctx;
    if (!room) return null;
    const options = Object.entries(room.options || {}).map(
      ([k, v]) => `${k.replaceAll("_", " ")}: ${v === true ? "yes" : v === false ? "no" : v}`,
    );
    const watchUrl = `${location.origin}/rooms/${room.id}/watch`;
    return h(
      "section.panel.table-about",
      { "aria-label": "About this table" },
      h("h2", {}, "This table"),
      options.length ? h("p.small", {}, options.join(" · ")) : null,
      h("p.small", {}, h("a", { href: `/rules/${room.game}`, target: "_blank", rel: "noopener" }, `Rules of ${room.title}`)),
      this.mode === "live"
        ? h(
            "div.small",
            {},
            h("label.label", { for: "watch-url" }, "Link for spectators"),
            h(
              "div.row",
              {},
              h("input", { id: "watch-url", readonly: true, value: watchUrl, onfocus: (e) => e.target.select() }),
              h(
                "button.btn.small",
                {
                  type: "button",
                  onclick: async (event) => {
                    const button = event.currentTarget;
                    try {
                      await navigator.clipboard.writeText(watchUrl);
                      button.textContent = "Copied";
                    } catch {
                      this.root.querySelector("#watch-url")?.select();
                      button.textContent = "Press Ctrl+C";
                    }
                  },
                },
                "Copy",
              ),
            ),
            room.watchers ? h("p.muted", {}, `${room.watchers} connected to this table`) : null,
          )
        : null,
    );
  }

  logPanel(ctx) {
    if (this.mode !== "live" || !this.log.length) return null;
    return h(
      "details.panel.log",
      { open: window.innerWidth > 900 },
      h("summary", {}, "Play log"),
      h(
        "ol.log-list",
        {},
        this.log.map((entry) => h("li", {}, ctx.words(entry.text))),
      ),
    );
  }

  result(ctx) {
    const { view, room } = ctx;
    if (!view.over) return null;
    const winners = view.winners || [];
    const ranking = Array.from({ length: ctx.seats }, (_, s) => s).sort(
      (a, b) => (view.scores?.[b] ?? 0) - (view.scores?.[a] ?? 0),
    );
    const iWon = winners.includes(ctx.me);
    const buttons = [];
    if (this.mode === "live") {
      if (room?.rematch_id) {
        buttons.push(h("a.btn.primary", { href: `/rooms/${room.rematch_id}`, "data-key": "go-rematch" }, "Go to the rematch"));
      } else if (ctx.me !== null && this.options.onRematch) {
        buttons.push(
          h(
            "button.btn.primary",
            { type: "button", "data-key": "rematch", onclick: () => this.options.onRematch() },
            "Rematch",
          ),
        );
      }
      if (room?.match_id) {
        buttons.push(h("a.btn", { href: `/matches/${room.match_id}` }, "Review the match"));
      }
      buttons.push(h("a.btn.ghost", { href: "/" }, "New table"));
    }
    return h(
      "section.panel.result",
      { "aria-labelledby": "result-title", class: iWon ? "won" : "" },
      h(
        "h2",
        { id: "result-title" },
        winners.length ? `${listWords(winners.map((s) => ctx.who(s)))} ${winners.length === 1 && !iWon ? "wins" : "win"}${iWon ? " — well played!" : "!"}` : "Match over",
      ),
      h(
        "ol.final-scores",
        {},
        ranking.map((seat) =>
          h(
            "li",
            { class: winners.includes(seat) ? "winner" : "" },
            h("span", {}, ctx.name(seat)),
            h("strong", { dataset: { final: String(seat) } }, view.scores?.[seat] ?? 0),
          ),
        ),
      ),
      buttons.length ? h("div.row.wrap", {}, buttons) : null,
      h("p.action-error", { dataset: { slot: "result" }, role: "alert", hidden: true }),
    );
  }

  // --- layout, focus, keyboard ------------------------------------------------------------

  layoutHand() {
    const hand = this.root.querySelector(".hand");
    if (!hand) return;
    const cards = [...hand.querySelectorAll(".card")];
    const n = cards.length;
    if (n < 2) {
      hand.style.setProperty("--overlap", "0px");
      return;
    }
    const width = hand.clientWidth;
    const cardWidth = cards[0].getBoundingClientRect().width || 64;
    const gap = 6;
    const natural = n * cardWidth + (n - 1) * gap;
    let overlap = -gap;
    let wrap = false;
    if (natural > width) {
      overlap = (n * cardWidth - width) / (n - 1);
      // Keep at least 40% of every card visible (its corner index); otherwise use two rows.
      if (cardWidth - overlap < cardWidth * 0.45) {
        wrap = true;
        const perRow = Math.ceil(n / 2);
        overlap = Math.max(-gap, (perRow * cardWidth - width) / (perRow - 1));
      }
    }
    hand.classList.toggle("wrapped", wrap);
    hand.style.setProperty("--overlap", `${Math.max(-gap, overlap)}px`);
  }

  restoreFocus(key, index) {
    if (!key) return;
    let target = this.root.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (!target && index >= 0) {
      const cards = [...this.root.querySelectorAll(".hand [data-key]")];
      target = cards[Math.min(index, cards.length - 1)];
    }
    if (target) {
      if (target.closest(".hand")) {
        for (const card of this.root.querySelectorAll(".hand .card")) card.tabIndex = -1;
        target.tabIndex = 0;
      }
      target.focus({ preventScroll: true });
    }
  }

  onKeyDown(event) {
    const card = event.target.closest?.(".hand .card");
    if (!card) return;
    const cards = [...this.root.querySelectorAll(".hand .card")];
    const index = cards.indexOf(card);
    let next = null;
    if (event.key === "ArrowRight" || event.key === "ArrowDown") next = cards[(index + 1) % cards.length];
    else if (event.key === "ArrowLeft" || event.key === "ArrowUp") next = cards[(index - 1 + cards.length) % cards.length];
    else if (event.key === "Home") next = cards[0];
    else if (event.key === "End") next = cards[cards.length - 1];
    if (next) {
      event.preventDefault();
      for (const c of cards) c.tabIndex = -1;
      next.tabIndex = 0;
      next.focus();
    }
  }

  // --- animation ------------------------------------------------------------------------

  snapshot() {
    const rects = new Map();
    for (const el of this.root.querySelectorAll("[data-card]")) {
      if (!el.closest(".last-trick, .open-hand")) rects.set(el.dataset.card, el.getBoundingClientRect());
    }
    const plates = new Map();
    for (const el of this.root.querySelectorAll(".plate[data-seat]")) {
      plates.set(el.dataset.seat, el.getBoundingClientRect());
    }
    const piles = new Map();
    for (const el of this.root.querySelectorAll("[data-pile]")) {
      piles.set(el.dataset.pile, el.getBoundingClientRect());
    }
    const scores = new Map();
    for (const el of this.root.querySelectorAll(".scoreboard [data-score]")) {
      scores.set(el.dataset.score, Number(el.textContent));
    }
    const watched = new Map();
    for (const el of this.root.querySelectorAll("[data-watch]")) {
      watched.set(el.dataset.watch, el.dataset.value);
    }
    return { rects, plates, piles, scores, watched };
  }

  animate(before, ctx, previous) {
    const plates = new Map();
    for (const el of this.root.querySelectorAll(".plate[data-seat]")) {
      plates.set(el.dataset.seat, el.getBoundingClientRect());
    }
    for (const el of this.root.querySelectorAll("[data-card]")) {
      if (el.closest(".last-trick, .open-hand")) continue;
      const code = el.dataset.card;
      const now = el.getBoundingClientRect();
      let from = before.rects.get(code);
      if (!from) {
        const seat = el.closest("[data-from-seat]")?.dataset.fromSeat;
        const pile = el.closest("[data-from-pile]")?.dataset.fromPile;
        if (seat !== undefined) from = before.plates.get(seat) || plates.get(seat);
        else if (pile) from = before.piles.get(pile);
        else if (el.closest(".hand")) from = before.piles.get("stock") || before.piles.get("deck");
      }
      if (!from) {
        if (previous) el.animate([{ opacity: 0, transform: "scale(.9)" }, { opacity: 1, transform: "none" }], { duration: ANIM_MS, easing: "ease-out" });
        continue;
      }
      const dx = from.left + from.width / 2 - (now.left + now.width / 2);
      const dy = from.top + from.height / 2 - (now.top + now.height / 2);
      if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
      const scale = from.width && now.width ? Math.min(1.4, Math.max(0.4, from.width / now.width)) : 1;
      el.animate(
        [
          { transform: `translate(${dx}px, ${dy}px) scale(${scale})` },
          { transform: "none" },
        ],
        { duration: ANIM_MS, easing: "cubic-bezier(.2,.75,.25,1)" },
      );
    }
    // Points scored: pulse the score and float "+n" over it.
    for (const el of this.root.querySelectorAll(".scoreboard [data-score]")) {
      const old = before.scores.get(el.dataset.score);
      const now = Number(el.textContent);
      if (old !== undefined && now !== old) {
        const delta = now - old;
        el.parentElement.append(
          h("span.score-float", { "aria-hidden": "true" }, `${delta > 0 ? "+" : ""}${delta}`),
        );
        el.animate([{ transform: "scale(1.5)", color: "#facc15" }, { transform: "none" }], {
          duration: 700,
          easing: "ease-out",
        });
      }
    }
    // Counts and states a game marks with data-watch (hand sizes, direction, piles) pulse
    // when they change, so draws and reversals are seen.
    for (const el of this.root.querySelectorAll("[data-watch]")) {
      const old = before.watched.get(el.dataset.watch);
      if (old !== undefined && old !== el.dataset.value) {
        const frames = el.dataset.spin
          ? [{ transform: "rotate(-180deg) scale(1.3)" }, { transform: "none" }]
          : [{ transform: "scale(1.35)", filter: "brightness(1.4)" }, { transform: "none" }];
        el.animate(frames, { duration: 520, easing: "cubic-bezier(.2,.75,.25,1)" });
      }
    }
    for (const el of this.root.querySelectorAll(".turn-banner, .plate.to-act")) {
      if (previous && previous.view?.to_act?.join() !== ctx.view.to_act?.join()) {
        el.animate([{ opacity: 0.4 }, { opacity: 1 }], { duration: 260 });
      }
    }
  }

  // --- announcements ----------------------------------------------------------------------

  announceChanges(ctx, previous) {
    if (this.mode !== "live") return;
    const { view } = ctx;
    const prev = previous?.view;
    if (view.over && !prev?.over) {
      const winners = (view.winners || []).map((s) => ctx.who(s));
      const scores = Array.from({ length: ctx.seats }, (_, s) => `${ctx.name(s)} ${view.scores?.[s] ?? 0}`);
      announce(`Match over. ${listWords(winners)} ${winners.length === 1 && winners[0] !== "You" ? "wins" : "win"}. Final scores: ${scores.join(", ")}.`, true);
      document.title = `Match over · ${ctx.room?.title || "Parlour"}`;
      return;
    }
    const mineNow = ctx.canAct;
    const minePrev = prev && ctx.me !== null && (prev.to_act || []).includes(ctx.me);
    const lastLine = this.log[0]?.version === ctx.frame.version ? `${ctx.words(this.log[0].text)}. ` : "";
    if (mineNow && (!minePrev || prev?.phase !== view.phase || previous?.version !== ctx.frame.version)) {
      announce(`${lastLine}Your turn. ${ctx.words(view.message || "")}`);
    } else if (previous?.version !== ctx.frame.version) {
      announce(`${lastLine}${ctx.words(view.message || "")}`);
    }
    const base = ctx.room?.title || "Parlour";
    document.title = mineNow ? `● Your turn · ${base}` : `${base} · Parlour`;
  }
}

function me(ctx) {
  return ctx.me === null ? "" : String(ctx.me);
}

/** The play action for a card, if the server lists one. */
export function defaultCardAction(ctx, code) {
  return ctx.legal.find((a) => a.type === "play" && a.card === code) || null;
}

/** The cards of a trick, each labelled with who played it, placed for animation. */
export function trickEl(ctx, cards, { winner = null, label = "Trick", caption = null } = {}) {
  return h(
    "div.trick",
    { role: "group", "aria-label": label },
    cards.map(({ seat, card }) =>
      h(
        "figure.trick-card",
        { dataset: { fromSeat: String(seat) }, class: seat === winner ? "won" : "" },
        ctx.card(card),
        h("figcaption", {}, ctx.name(seat), seat === winner ? h("span.crown", { "aria-label": "won" }, " ★") : null),
      ),
    ),
    caption ? h("p.trick-caption", {}, caption) : null,
  );
}

/** A face-down pile with its count: the stock, a dump, a discard pile. */
export function pileEl(name, count, { label, onclick, key, face = null, ctx = null } = {}) {
  const text = label || `${name}: ${plural(count, "card")}`;
  const inner = face && ctx ? ctx.card(face) : count > 0 ? backsEl(Math.min(count, 3), { max: 3, label: text }) : h("span.empty-pile", {}, "empty");
  const attrs = { dataset: { pile: key || name }, "aria-label": text };
  if (onclick) {
    return h("button.pile.clickable", { type: "button", ...attrs, "data-key": `pile:${key || name}`, onclick }, inner, h("span.pile-label", {}, name, h("span.pile-count", {}, ` ${count}`)));
  }
  return h("div.pile", { role: "group", ...attrs }, inner, h("span.pile-label", {}, name, h("span.pile-count", {}, ` ${count}`)));
}
