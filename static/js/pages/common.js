// common.js — what every page shares: the "your name" dialog in the header, the account
// controls (account.js), the live channel's news (live.js) and the connection indicator. Pages import initChrome() and
// setConnection().

import { onSessionStarted, post, sessionStarted } from "../lib/api.js";
import { $, announce, boot, showError } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { initLive } from "../lib/live.js";
import { initAccount } from "./account.js";

const listeners = [];
let user = null; // who the visitor is now (the boot data's, until they rename themselves)

/** Call fn(user) whenever the visitor renames themselves. */
export function onRename(fn) {
  listeners.push(fn);
}

export function currentUser() {
  return user || boot().user || null;
}

function paintName({ name }) {
  const button = $("#who-name");
  if (!button) return;
  button.querySelector(".who-text").textContent = name;
  button.querySelector(".avatar").textContent = name.slice(0, 1);
}

function becomes(who) {
  user = { id: who.user_id, name: who.name };
  paintName(user);
  for (const fn of listeners) fn(user);
  return user;
}

/** Save a new name (POST /api/session; a visitor's first makes their guest); returns the
 * user or throws ApiError. */
export async function saveName(name) {
  const first = !currentUser()?.id;
  const saved = await post("/session", { name });
  // A first session is news for the whole page (becomes() is one of its listeners).
  if (first) sessionStarted(saved);
  else becomes(saved);
  return user;
}

export function initChrome() {
  user = boot().user || null;
  onSessionStarted(becomes);
  initAccount();
  initLive(user);
  const dialog = $("#name-dialog");
  const button = $("#who-name");
  const input = $("#name-input");
  const error = $("#name-error");
  if (!dialog || !button) return;
  button.addEventListener("click", () => {
    input.value = currentUser()?.name || "";
    showError(error, null);
    dialog.showModal();
    input.select();
  });
  $("#name-cancel").addEventListener("click", () => dialog.close());
  $("#name-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const renamed = await saveName(input.value);
      dialog.close();
      announce(t("Your name is now {name}.", { name: renamed.name }));
    } catch (err) {
      showError(error, err.message);
      input.focus();
    }
  });
}

const STATUS_TEXT = {
  connecting: t("Connecting…"),
  open: t("Connected"),
  reconnecting: t("Reconnecting…"),
  gone: t("Room not found"),
  signed_out: t("Signed out"),
};

let countdown = null;
/** Show the WebSocket's state in the header ("Connected", "Reconnecting in 3 s"). */
export function setConnection(status, detail = {}) {
  const el = $("#conn");
  if (!el) return;
  clearInterval(countdown);
  el.hidden = false;
  el.dataset.status = status;
  if (status === "waiting") {
    let left = Math.ceil((detail.delay || 0) / 1000);
    const paint = () => {
      el.textContent =
        left > 0 ? t("Offline — retrying in {seconds} s", { seconds: left }) : t("Reconnecting…");
    };
    paint();
    countdown = setInterval(() => {
      left -= 1;
      paint();
      if (left <= 0) clearInterval(countdown);
    }, 1000);
  } else {
    el.textContent = STATUS_TEXT[status] || status;
  }
}
