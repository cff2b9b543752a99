// dom.js — tiny DOM helpers shared by every page: element builder, boot data,
// screen-reader announcements, and inline error messages placed next to their action.

import { date, list, t } from "./i18n.js";

/** Build an element: h("button.btn.primary", {type: "button", onclick}, "Go"). */
export function h(spec, attrs = {}, ...children) {
  const [tag, ...classes] = spec.split(".");
  const el = document.createElement(tag || "div");
  if (classes.length) el.className = classes.join(" ");
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "dataset") {
      Object.assign(el.dataset, value);
    } else if (key === "html") {
      el.innerHTML = value;
    } else if (key === "class") {
      el.className += (el.className ? " " : "") + value;
    } else if (key === "style" && typeof value === "object") {
      Object.assign(el.style, value);
    } else if (value === true) {
      el.setAttribute(key, "");
    } else {
      el.setAttribute(key, String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export const $ = (selector, root = document) => root.querySelector(selector);
export const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];

/** The JSON the server put in the page (who you are, which room or match). */
export function boot() {
  const node = document.getElementById("boot");
  return node ? JSON.parse(node.textContent) : {};
}

/** What the server says of a game (the boot data's `games`): {name, title, pack, ...}. */
export function gameFacts(name) {
  return (boot().games || []).find((g) => g.name === name) || { name, title: name };
}

let announceTimer = null;
/** Say something to screen-reader users (polite, or assertive for results and errors). */
export function announce(text, assertive = false) {
  const region = document.getElementById(assertive ? "alerter" : "announcer");
  if (!region || !text) return;
  // Clearing first makes the same sentence be read again when it repeats.
  region.textContent = "";
  clearTimeout(announceTimer);
  announceTimer = setTimeout(() => {
    region.textContent = text;
  }, 60);
}

/** Show an error sentence in a (hidden-until-needed) element; null/"" hides it. */
export function showError(el, message) {
  if (!el) return;
  if (!message) {
    el.hidden = true;
    el.textContent = "";
    return;
  }
  el.textContent = message;
  el.hidden = false;
}

/** Seat display name: "Ann", or "Seat 2" for an empty seat. */
export function seatName(room, seat) {
  const holder = room?.seats?.[seat];
  return holder?.name || t("Seat {number}", { number: seat + 1 });
}

/** "a, b and c", in the page's language. */
export function listWords(words) {
  return list(words);
}

export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

export function formatDate(iso) {
  if (!iso) return "";
  return date(new Date(iso), { dateStyle: "medium", timeStyle: "short" });
}
