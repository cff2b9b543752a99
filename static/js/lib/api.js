// api.js — the JSON REST client for /api (docs/protocol.md). Every refusal becomes an
// ApiError carrying the server's code and its sentence, so pages can show it in words.
// A visitor has no guest (no session) until they first do something: before the first
// call that changes anything, the guest is made under the name the page offered them
// (POST /api/session). A call answered `no_session` all the same (the session ended
// meanwhile) is sent again after the same step.

import { boot } from "./dom.js";
import { t } from "./i18n.js";

const sessionListeners = [];
let starting = null;
let hasSession = Boolean(boot().user?.id);
// Calls that need no guest first: making one, and logging in (which replaces it).
const SESSIONLESS = new Set(["/session", "/login"]);

/** Call fn({user_id, name, username}) when this page's visitor gets their guest session. */
export function onSessionStarted(fn) {
  sessionListeners.push(fn);
}

/** Tell the page that the visitor now has a session (their first call, or a new name). */
export function sessionStarted(who) {
  hasSession = true;
  for (const fn of sessionListeners) fn(who);
}

/** Make the visitor's guest, once, under the name the page offered them. */
export function startSession() {
  starting ??= request("POST", "/session", { name: boot().user?.name }).then(
    (who) => {
      sessionStarted(who);
      return who;
    },
    (err) => {
      starting = null;
      throw err;
    },
  );
  return starting;
}

export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

export async function api(method, path, body) {
  // Reading never makes a guest; doing something does (see the top of this file).
  const acts = method !== "GET" && !SESSIONLESS.has(path);
  if (acts && !hasSession) await startSession();
  try {
    return await request(method, path, body);
  } catch (err) {
    if (err.code !== "no_session" || !acts) throw err;
    starting = null; // the session ended: make a new guest
    await startSession();
    return request(method, path, body);
  }
}

async function request(method, path, body) {
  const init = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(`/api${path}`, init);
  } catch {
    throw new ApiError("network", t("Cannot reach the server. Check your connection."), 0);
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const message =
      data?.message ||
      data?.detail ||
      t("The server refused ({status}).", { status: response.status });
    throw new ApiError(data?.code || "http_error", String(message), response.status);
  }
  return data;
}

export const get = (path) => api("GET", path);
export const post = (path, body) => api("POST", path, body ?? {});
export const del = (path) => api("DELETE", path);
