// clocks.js — the turn clocks on the table, counted down in the browser. Every room and
// state message carries the server's time (`now`) and each state, per seat, the bank left
// and (while awaited) the turn's deadline. The page keeps only the difference between the
// server's time and its own, so a countdown never trusts the browser's clock. One ticker per
// page repaints every countdown — and every button that waits for the absence grace — a few
// times a second without redrawing the table. Your own seat's big clock warns you when its
// time runs low (low-time.js).

import { h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { watchLowTime } from "./low-time.js";

const URGENT_SECONDS = 10;
const TICK_MS = 250;
let offsetMs = 0; // the server's time minus this browser's
let ticking = false;

/** The server said it is `iso` now (every room and state message says so). */
export function noteServerTime(iso) {
  const at = Date.parse(iso);
  if (Number.isFinite(at)) offsetMs = at - Date.now();
}

/** The server's time now, in milliseconds. */
export function serverNow() {
  return Date.now() + offsetMs;
}

/** "1:05" from seconds (rounded up, never below 0:00). */
export function minutes(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

/** "2 d 5 h", "3 h 12 min": a turn-based table's time to move, counted in days. */
export function longWhile(seconds) {
  const whole = Math.max(0, Math.floor(seconds / 60));
  const days = Math.floor(whole / 1440);
  const hours = Math.floor((whole % 1440) / 60);
  return days > 0
    ? t("{days} d {hours} h", { days, hours })
    : t("{hours} h {minutes} min", { hours, minutes: whole % 60 });
}

/** What an awaited seat's clock reads now: its turn time, then its bank. */
function reading(el) {
  const bank = Number(el.dataset.bank);
  const turnLeft = (Number(el.dataset.deadline) - serverNow()) / 1000;
  const left = turnLeft + bank;
  if (turnLeft >= 3600 && bank === 0) return { text: longWhile(turnLeft), left };
  if (turnLeft > 0) {
    const extra = bank > 0 ? ` + ${minutes(bank)}` : "";
    return { text: `${minutes(turnLeft)}${extra}`, left };
  }
  return { text: t("bank {time}", { time: minutes(left) }), left };
}

function paintClock(el) {
  const { text, left } = reading(el);
  if (el.textContent !== text) el.textContent = text;
  el.classList.toggle("urgent", left <= URGENT_SECONDS);
  if (el.dataset.warn) watchLowTime(el, left);
}

function paintReady(button) {
  const left = (Number(button.dataset.readyAt) - serverNow()) / 1000;
  const label = button.dataset.label;
  const wait = left >= 3600 ? longWhile(left) : t("{seconds} s", { seconds: Math.ceil(left) });
  const text = left > 0 ? t("{label} (in {wait})", { label, wait }) : label;
  if (button.textContent !== text) button.textContent = text;
  button.disabled = left > 0;
}

function tick() {
  for (const el of document.querySelectorAll(".clock[data-deadline]")) paintClock(el);
  for (const el of document.querySelectorAll("[data-ready-at]")) paintReady(el);
}

function ensureTicking() {
  if (ticking) return;
  ticking = true;
  setInterval(tick, TICK_MS);
}

/** A seat's clock: a countdown while it is awaited, else its bank (if any). `big`: the big
 *  clock's (big-clocks.js); `warn`: give the low-time warning when it runs low. */
export function clockEl(ctx, seat, { big = false, warn = false } = {}) {
  const clock = ctx.frame.clocks?.[seat];
  if (!clock || ctx.mode !== "live" || ctx.view.over || ctx.room?.status !== "playing") {
    return null;
  }
  if (!clock.deadline) {
    return clock.bank > 0
      ? h(
          "span.clock.idle",
          { title: t("Time left in the bank") },
          t("bank {time}", { time: minutes(clock.bank) }),
        )
      : null;
  }
  const el = h("span.clock", {
    role: "timer",
    class: big ? "big" : "",
    title: t("Time left for this turn, then the bank"),
    dataset: {
      deadline: String(Date.parse(clock.deadline)),
      bank: String(clock.bank),
      ...(warn ? { warn: "1" } : {}),
    },
  });
  paintClock(el);
  ensureTicking();
  return el;
}

/** `button` is disabled, saying how long is left, until the server's time reaches
 * `readyAtMs`; then it reads `label` and can be pressed. */
export function whenReady(button, readyAtMs, label) {
  button.dataset.readyAt = String(readyAtMs);
  button.dataset.label = label;
  paintReady(button);
  ensureTicking();
  return button;
}
