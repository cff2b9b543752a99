// live.js — the live channel (/ws/me, docs/protocol.md "The live channel"): every page
// of a signed-in person holds one socket, reconnecting with backoff, and shows what the
// server tells it in the page's corner — an invitation to a seat (accept or decline), a
// friend's ask or acceptance, an answer to an invitation you sent, a moderator's notice.
// Pages may listen too (onLive) to refresh what they show. On every page it also shows the
// moderators' word in force (GET /api/me/moderation: a mute, warnings not yet seen) and,
// to a banned visitor, why and until when.

import { get, post } from "./api.js";
import { $, announce, boot, gameFacts, h } from "./dom.js";
import { date, t } from "./i18n.js";

const listeners = [];
const shown = new Set(); // invitation ids with a notice on the page
let retry = 1000;

// A moderator's mute in force, as the live channel's notice words it (null: none), for the
// pages' parts that change while it lasts (the table talk's box).
let muteInForce = null;

/** Call fn(message) for every message the live channel brings — first, the mute in force. */
export function onLive(fn) {
  listeners.push(fn);
  if (muteInForce) fn(muteInForce);
}

function tellListeners(message) {
  if (message.type === "notice" && message.kind === "mute") muteInForce = message;
  if (message.type === "notice" && message.kind === "unmute") muteInForce = null;
  for (const fn of listeners) fn(message);
}

function region() {
  let el = $("#live-notices");
  if (!el) {
    el = h("div.live-notices", { id: "live-notices", role: "region", "aria-label": t("News") });
    document.body.append(el);
  }
  return el;
}

function dismissable(text, ...actions) {
  const card = h("div.live-notice.panel", { role: "status" }, h("p", {}, text));
  const close = h("button.btn.ghost.small", { type: "button" }, t("Dismiss"));
  close.addEventListener("click", () => card.remove());
  card.append(h("div.row.wrap", {}, ...actions, close));
  region().append(card);
  announce(text);
  return card;
}

function showInvitation(invitation) {
  if (shown.has(invitation.id)) return;
  shown.add(invitation.id);
  const title = gameFacts(invitation.game)?.title || invitation.game;
  const text = t("{name} invites you to a seat at {game}.", { name: invitation.from, game: title });
  const error = h("p.error.small", { role: "alert", hidden: true });
  const accept = h("button.btn.primary.small", { type: "button" }, t("Accept"));
  const decline = h("button.btn.small", { type: "button" }, t("Decline"));
  const card = dismissable(text, accept, decline);
  card.dataset.invitation = invitation.id;
  card.append(error);
  accept.addEventListener("click", async () => {
    try {
      await post(`/me/invitations/${invitation.id}/accept`);
      window.location.assign(`/rooms/${invitation.room_id}`);
    } catch (err) {
      error.textContent = err.message;
      error.hidden = false;
    }
  });
  decline.addEventListener("click", async () => {
    try {
      await post(`/me/invitations/${invitation.id}/decline`);
    } catch {
      // Gone already (answered elsewhere, or the table moved on): nothing to decline.
    }
    card.remove();
  });
}

function closeInvitation(id) {
  $(`[data-invitation="${CSS.escape(id)}"]`)?.remove();
}

const TEXTS = {
  friend_request: (m) => t("{name} asks to be your friend.", { name: m.from }),
  friend_accepted: (m) => t("{name} is now your friend.", { name: m.by }),
  invitation_accepted: (m) => t("{name} accepted your invitation.", { name: m.by }),
  invitation_declined: (m) => t("{name} declined your invitation.", { name: m.by }),
  notice: (m) => noticeText(m),
};

/** A moderator's notice as the person reads it: its words, and until when. */
export function noticeText(message) {
  return message.until
    ? t("{text} (until {time})", { text: message.text, time: moment(message.until) })
    : message.text;
}

// A moment as the browser's own toLocaleString() writes it, in the page's language.
const MOMENT = {
  year: "numeric",
  month: "numeric",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
  second: "2-digit",
};

function moment(iso) {
  return date(new Date(iso), MOMENT);
}

const SEEN_WARNING = "parlour.seen-warning"; // the time of the newest warning shown

function untilText(until) {
  return until ? t(" (until {time})", { time: moment(until) }) : "";
}

/** A word that stays until the person dismisses it: a mute or ban in force. */
function standing(text, kind) {
  if ($(`[data-standing="${kind}"]`)) return;
  dismissable(text).dataset.standing = kind;
}

async function showStanding() {
  let word;
  try {
    word = await get("/me/moderation");
  } catch {
    return; // shown on the next page
  }
  for (const sanction of word.sanctions) {
    if (sanction.kind === "mute") {
      const text = t("A moderator muted you everywhere{until}. Reason: {reason}", {
        until: untilText(sanction.until),
        reason: sanction.reason,
      });
      standing(text, "mute");
      tellListeners({ type: "notice", kind: "mute", text });
    }
  }
  const seen = localStorage.getItem(SEEN_WARNING) || "";
  const unseen = word.warnings.filter((w) => w.at > seen);
  for (const warning of unseen.reverse()) {
    dismissable(t("A moderator warns you: {reason}", { reason: warning.reason }));
  }
  if (unseen.length) localStorage.setItem(SEEN_WARNING, unseen[unseen.length - 1].at);
}

function received(message) {
  if (message.type === "banned") standing(message.message, "ban");
  else if (message.type === "notice" && message.kind === "mute") {
    $('[data-standing="mute"]')?.remove();
    standing(TEXTS.notice(message), "mute");
  } else if (message.type === "notice" && message.kind === "unmute") {
    $('[data-standing="mute"]')?.remove();
    dismissable(message.text);
  } else if (message.type === "notice" && message.kind === "warn") {
    // Shown now: not again on the next page.
    localStorage.setItem(SEEN_WARNING, new Date().toISOString());
    dismissable(message.text);
  } else if (message.type === "invitation") showInvitation(message.invitation);
  else if (message.type === "invitation_closed") closeInvitation(message.id);
  else if (TEXTS[message.type]) dismissable(TEXTS[message.type](message));
  tellListeners(message);
}

function connect() {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${window.location.host}/ws/me`);
  socket.addEventListener("open", async () => {
    retry = 1000;
    document.body.dataset.live = "open";
    // What came while no page was open: the invitations still waiting.
    try {
      const { invitations } = await get("/me/invitations");
      for (const invitation of invitations) showInvitation(invitation);
    } catch {
      // Listed again on the next connection.
    }
  });
  socket.addEventListener("message", (event) => {
    try {
      received(JSON.parse(event.data));
    } catch {
      // Not ours to show.
    }
  });
  socket.addEventListener("close", (event) => {
    delete document.body.dataset.live;
    // Signed out, or banned (told why just before): nothing to listen for.
    if (event.code === 4401 || event.code === 4410) return;
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 30000);
  });
}

/** Open the live channel for a signed-in person (an account). */
export function initLive(user) {
  const banned = boot().banned;
  if (banned) standing(banned, "ban");
  if (user?.id) showStanding();
  if (user?.username) connect();
}
