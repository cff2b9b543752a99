// notifications.js — the notification settings page: push notifications on this device
// (the service worker /sw.js; accounts and guests), and for an account its e-mail address,
// webhook and the events each is told of (GET and PUT /api/me/notifications).

import { ApiError, api, get, post } from "../lib/api.js";
import { $, $$, showError } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { initChrome } from "./common.js";

initChrome();

const FLAGS = ["turns", "reminders", "endings"];
const CHANNELS = ["email", "webhook", "push"];

// --- push on this device ------------------------------------------------------------------

function pushSupported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

/** The application server key (base64url) as the bytes pushManager.subscribe wants. */
function keyBytes(base64url) {
  const padded = base64url
    .replace(/-/g, "+")
    .replace(/_/g, "/")
    .padEnd(Math.ceil(base64url.length / 4) * 4, "=");
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

async function registration() {
  await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  return navigator.serviceWorker.ready;
}

function paintPush(subscribed, status = "") {
  const button = $("#push-toggle");
  button.disabled = false;
  button.textContent = subscribed
    ? t("Turn off push notifications")
    : t("Turn on push notifications");
  button.dataset.subscribed = String(subscribed);
  $("#push-status").textContent =
    status || (subscribed ? t("On for this browser.") : t("Off for this browser."));
}

async function subscribe() {
  const permission = await Notification.requestPermission();
  if (permission !== "granted") {
    paintPush(
      false,
      t("This browser was not allowed to show notifications (see its site settings)."),
    );
    return;
  }
  const { public_key: key } = await get("/push/key");
  const reg = await registration();
  const subscription = await reg.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: keyBytes(key),
  });
  await post("/me/push-subscriptions", subscription.toJSON());
  paintPush(true);
}

async function unsubscribe() {
  const reg = await registration();
  const subscription = await reg.pushManager.getSubscription();
  if (subscription) {
    await api("DELETE", "/me/push-subscriptions", { endpoint: subscription.endpoint });
    await subscription.unsubscribe();
  }
  paintPush(false);
}

async function initPush() {
  const button = $("#push-toggle");
  if (!pushSupported()) {
    $("#push-status").textContent = t("This browser cannot receive push notifications.");
    return;
  }
  try {
    const reg = await registration();
    paintPush(Boolean(await reg.pushManager.getSubscription()));
  } catch {
    $("#push-status").textContent = t("Push notifications are not available here.");
    return;
  }
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      if (button.dataset.subscribed === "true") await unsubscribe();
      else await subscribe();
    } catch (err) {
      paintPush(
        button.dataset.subscribed === "true",
        err instanceof ApiError ? err.message : t("That did not work; try again."),
      );
    }
  });
}

// --- an account's e-mail and webhook ------------------------------------------------------

function paintSettings(settings) {
  $("#notify-email").value = settings.email || "";
  let emailState = "";
  if (!settings.email_available)
    emailState = t("This server sends no e-mail (it has no mail server set up).");
  else if (settings.email && !settings.email_confirmed)
    emailState = t(
      "Not confirmed yet: follow the link we sent to it. Nothing else is sent until then.",
    );
  else if (settings.email) emailState = t("Confirmed.");
  $("#email-state").textContent = emailState;
  $("#notify-webhook").value = settings.webhook_url || "";
  const note = $("#webhook-note");
  note.hidden = !settings.webhook_disabled;
  note.textContent = settings.webhook_note || "";
  $("#webhook-secret-line").hidden = !settings.webhook_secret;
  $("#webhook-secret").textContent = settings.webhook_secret || "";
  for (const channel of CHANNELS) {
    for (const flag of FLAGS)
      $(`#${channel}-${flag}`).checked = Boolean(settings[`${channel}_${flag}`]);
  }
}

function formBody() {
  const body = {
    email: $("#notify-email").value.trim() || null,
    webhook_url: $("#notify-webhook").value.trim() || null,
  };
  for (const box of $$("#notify-form input[type=checkbox]")) body[box.name] = box.checked;
  return body;
}

async function initSettings() {
  const form = $("#notify-form");
  if (!form) return;
  try {
    paintSettings(await get("/me/notifications"));
  } catch (err) {
    showError($("#notify-error"), err.message);
  }
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = $("#notify-save");
    button.disabled = true;
    showError($("#notify-error"), null);
    $("#notify-saved").textContent = "";
    try {
      paintSettings(await api("PUT", "/me/notifications", formBody()));
      $("#notify-saved").textContent = t("Saved.");
    } catch (err) {
      showError($("#notify-error"), err.message);
    } finally {
      button.disabled = false;
    }
  });
}

initPush();
initSettings();
