// table.js — the card table shared by every game. It draws what the server sent (the seat's
// view and its legal actions) and nothing else: the client has no rules in it; it offers
// exactly the legal actions it was sent and sends back what the player chose. The game's
// table module (<game>.js, found through registry.js) supplies the game's own parts (the
// centre, extra buttons, summaries); this module puts the table together from its regions
// and keeps what lasts between frames: the frame queue, the pending move, the play log.
//
//   frames.js         the frame queue and its pacing
//   context.js        the `ctx` handed to every drawing function
//   bar.js            top bar (title, chips, scores) and the turn banner
//   plates.js         the players' plates
//   hand.js           your hand, its choice menu and the keyboard
//   panels.js         result, last trick, "This table"
//   log.js            the play log
//   errors.js         refusals next to the control that caused them
//   animation.js      the animation of every change
//   announcements.js  what a screen reader hears, and the tab's title
//   sounds.js         the sounds of moves, and the one switch for every sound
//   big-clocks.js     the big clocks of the awaited seats (clocks.js counts them down)
//   help.js           what each action means, beside the controls that take it
//   walkthrough.js    the first-match walkthrough, and the button that opens it again

import { announce, gameFacts, h, reducedMotion } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { animateChanges, snapshot } from "./animation.js";
import { announceChanges } from "./announcements.js";
import { bar, turnBanner } from "./bar.js";
import { bigClocks } from "./big-clocks.js";
import { makeContext } from "./context.js";
import { ErrorSlots, errorSlot } from "./errors.js";
import { FrameQueue } from "./frames.js";
import { Hand } from "./hand.js";
import { ActionHelp } from "./help.js";
import { PlayLog } from "./log.js";
import { about, lastTrick, result } from "./panels.js";
import { plate, plates } from "./plates.js";
import { tableModule } from "./registry.js";
import { armSounds, moveSound, soundToggle } from "./sounds.js";
import { Walkthrough } from "./walkthrough.js";

function noAnswer(reason) {
  return Object.assign(new Error(`The preview was not answered (${reason}).`), { reason });
}

export class Table {
  /**
   * @param {HTMLElement} root where the table is drawn
   * @param {string} gameName the server's name of the game (its module and facts follow)
   * @param {object} options {mode: "live"|"review", onAct(action, version),
   *   preview(action, version) → Promise, onRematch(accept), onReplace(seat), isHost(),
   *   ratingChanges(matchId) → Promise of the finished match's rating changes,
   *   userId() → who is looking, onReclaim() → take back the seat a computer plays for them,
   *   onRules() → show the game's rules in short}
   */
  constructor(root, gameName, options = {}) {
    this.root = root;
    this.game = tableModule(gameName);
    const facts = gameFacts(gameName);
    this.title = facts.title;
    this.pack = facts.pack;
    this.lowerWins = Boolean(facts.lower_scores_win);
    this.options = options;
    this.mode = options.mode || "live";
    this.current = null; // the frame on screen
    this.pendingSlot = null; // the slot of the move sent and not yet answered
    this.kept = new Map(); // the game module's own state for this table (ctx.keep)
    this.ratings = null; // {matchId, changes}: the finished match's rating changes
    this.frames = new FrameQueue((frame) => this.render(frame, true));
    this.errors = new ErrorSlots(root);
    this.log = new PlayLog();
    this.hand = new Hand(root, {
      game: this.game,
      showError: (message, slot) => this.showError(message, slot),
      redraw: (focusKey) => this.redraw(focusKey),
    });
    this.help = new ActionHelp(root);
    this.walkthrough = new Walkthrough(gameName);
    if (this.mode === "live") armSounds();
  }

  /** Queue a frame {room, view, version, seat, event, clocks?, hands?}; shown in order. */
  push(frame) {
    this.frames.push(frame);
  }

  /** Show a frame now (review stepping), without the queue's pacing. */
  show(frame, { animate = true } = {}) {
    this.frames.clear();
    this.render(frame, animate);
  }

  /** The latest room description changed (names, presence): redraw the current frame. */
  updateRoom(room) {
    if (!this.current) return;
    // Every action bumps the room's version; redraw only for what the table shows of the
    // room (names, presence, computer players, the rematch), never under a pointer for nothing.
    const shown = (r) =>
      JSON.stringify([
        r?.seats,
        r?.rematch_id,
        r?.rematch_offer,
        r?.status,
        r?.watchers,
        r?.match_id,
      ]);
    const changed = shown(room) !== shown(this.current.room);
    this.current = { ...this.current, room };
    this.frames.setRoom(room);
    if (changed && !this.frames.length) this.render(this.current, false, true);
  }

  context(frame) {
    return makeContext(frame, this);
  }

  keep(key, create) {
    if (!this.kept.has(key)) this.kept.set(key, create());
    return this.kept.get(key);
  }

  /** Draw the current frame again, in place, and focus the control named `focusKey`. */
  redraw(focusKey) {
    this.render(this.current, false, true);
    if (focusKey) this.root.querySelector(`[data-key="${CSS.escape(focusKey)}"]`)?.focus();
  }

  // --- acting ---------------------------------------------------------------------------

  act(action, slot = "actions") {
    if (this.mode !== "live" || this.pendingSlot) return;
    this.errors.clear();
    this.pendingSlot = slot;
    this.root.classList.add("pending");
    const sent = this.options.onAct?.(action, this.current?.version);
    if (sent === false) {
      this.pendingSlot = null;
      this.root.classList.remove("pending");
      this.showError(t("You are offline; the move was not sent. Reconnecting…"), slot);
    }
  }

  /** What `action` would do at `version`; rejects with {reason} when there is no answer. */
  preview(action, version) {
    if (this.mode !== "live" || !this.options.preview) {
      return Promise.reject(noAnswer("offline"));
    }
    if (this.current?.version !== version) return Promise.reject(noAnswer("stale"));
    return this.options.preview(action, version);
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
    this.errors.show(message, slot);
  }

  /** The rating changes of the finished match on screen, once the server has said them
   *  (asked once per match; the table is drawn again when they arrive). */
  ratingsFor(ctx) {
    const matchId = ctx.room?.match_id;
    if (!ctx.view.over || !matchId || !this.options.ratingChanges) return null;
    if (this.ratings?.matchId !== matchId) {
      const asked = { matchId, changes: null };
      this.ratings = asked;
      this.options.ratingChanges(matchId).then(
        (changes) => {
          asked.changes = changes;
          if (this.ratings === asked && changes.length && this.current) this.redraw();
        },
        () => {},
      );
    }
    return this.ratings.changes;
  }

  // --- rendering ------------------------------------------------------------------------

  /** Draw `frame`; `quiet` redraws the same frame (no announcements, errors kept). */
  render(frame, animate = true, quiet = false) {
    const previous = this.current;
    const ctx = this.context(frame);
    const errors = this.errors.visible();
    // The first frame has nothing to move from: no snapshot, no animation, and so no layout
    // forced while the table is first built (the browser lays it out once, in its frame).
    const before = animate && previous && !reducedMotion() ? snapshot(this.root) : null;
    const focus = this.hand.focusBefore();
    if (!quiet) {
      this.pendingSlot = null;
      this.root.classList.remove("pending");
    }
    this.current = frame;
    if (!quiet && frame.version !== previous?.version) {
      this.log.remember(ctx, previous);
      this.hand.newVersion();
    }
    this.root.replaceChildren(this.tableEl(ctx));
    this.root.setAttribute("aria-busy", "false");
    if (quiet) for (const [slot, text] of errors) this.showError(text, slot);
    this.hand.attach({ now: Boolean(previous) });
    this.help.attach();
    this.hand.restoreFocus(focus);
    if (before) animateChanges(this.root, before, ctx, previous);
    if (!quiet) announceChanges(ctx, previous, this.log.lineFor(ctx));
    if (!quiet && this.mode === "live") moveSound(frame, previous);
    this.walkthrough.offer(ctx);
  }

  tableEl(ctx) {
    const { view } = ctx;
    const game = this.game;
    return h(
      "div.table",
      {
        dataset: {
          game: view.game,
          version: String(ctx.frame.version ?? ""),
          phase: view.phase || "",
          seat: ctx.me === null ? "" : String(ctx.me),
        },
        class: ctx.canAct ? "my-turn" : "",
      },
      bar(ctx, game.info ? game.info(ctx) : [], this.title, this.options.onRules, this.tools()),
      bigClocks(ctx),
      h(
        "div.felt",
        {},
        h(
          "div.opponents",
          { role: "list", "aria-label": t("Players") },
          plates(ctx, this.plateParts()),
        ),
        h(
          "div.table-center",
          {},
          turnBanner(ctx),
          this.log.clockNotice(ctx),
          game.center ? game.center(ctx) : null,
          errorSlot("center"),
        ),
      ),
      this.mine(ctx),
      h(
        "div.side",
        {},
        result(ctx, {
          onRematch: this.options.onRematch,
          ratings: this.ratingsFor(ctx),
          userId: this.options.userId,
        }),
        game.showsLastTrick ? null : lastTrick(ctx),
        game.summary ? game.summary(ctx) : null,
        this.log.panel(ctx),
        about(ctx),
      ),
      errorSlot("general"),
    );
  }

  /** The live table's own buttons in its bar: the walkthrough again, the sound switch. */
  tools() {
    return this.mode === "live" ? [this.walkthrough.button(), soundToggle()] : [];
  }

  /** For the person a computer plays for: why, and the button to take the seat back. */
  reclaimPanel(ctx) {
    const userId = this.options.userId?.();
    const seat = (ctx.room?.seats || []).find((s) => userId && s.stand_in_for?.user_id === userId);
    if (!seat || ctx.room.status !== "playing" || !this.options.onReclaim) return null;
    const ranOut = (ctx.frame.clocks?.[seat.seat]?.timeouts ?? 0) >= 2;
    const words = ranOut
      ? t("Your time ran out twice, so a computer ({name}) is playing your seat.", {
          name: seat.name,
        })
      : t("You were away, so a computer ({name}) is playing your seat.", { name: seat.name });
    return h(
      "div.reclaim",
      { role: "group", "aria-label": t("Your seat") },
      h("p", {}, words),
      h(
        "button.btn.primary",
        { type: "button", "data-key": "reclaim", onclick: () => this.options.onReclaim() },
        t("Take back my seat"),
      ),
      errorSlot("reclaim"),
    );
  }

  plateParts() {
    const { onReplace, onClaim, isHost, turnBased } = this.options;
    // At a turn-based table every player may act on a deadline passed, not only the host.
    const may = isHost?.() || turnBased?.();
    return {
      seatExtras: this.game.seatExtras,
      replace: onReplace && may ? onReplace : null,
      claim: onClaim && turnBased?.() ? onClaim : null,
    };
  }

  /** My seat: my plate, my hand (or, for a spectator, nothing hidden), my extra actions. */
  mine(ctx) {
    if (ctx.me === null) {
      if (this.mode === "review") return null;
      return h(
        "div.mine.spectator",
        {},
        this.reclaimPanel(ctx) ||
          h(
            "p.muted",
            {},
            t("You are watching. Hands stay hidden; you see what every player sees on the table."),
          ),
      );
    }
    const actions = this.game.actions ? this.game.actions(ctx) : null;
    return h(
      "div.mine",
      // The page's "Skip to your hand" link lands here; the next Tab is the hand.
      { id: "hand-area", tabindex: "-1" },
      plate(ctx, ctx.me, this.plateParts(), { listed: false }),
      h(
        "div.hand-area",
        {},
        // The actions come first: on a small screen they stay above the fold with the hand.
        actions
          ? h(
              "div.actions",
              { role: "group", "aria-label": t("Actions") },
              actions,
              errorSlot("actions"),
            )
          : null,
        h("h2.sr-only", { id: "hand-title" }, t("Your hand")),
        this.hand.element(ctx),
        errorSlot("hand"),
      ),
    );
  }
}
