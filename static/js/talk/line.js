// line.js — one line of table talk as an element, for the live chat and the review alike.
// Everything people wrote is put in as text (never as HTML), each part isolated from the
// direction of its neighbours, so a name or a line in another script cannot reorder the
// rest of the line.

import { h } from "../lib/dom.js";
import { date } from "../lib/i18n.js";

/** "14:05" for a server time ("2026-11-22T14:05:09Z"); "" when there is none. */
export function clock(at) {
  if (!at) return "";
  return date(new Date(at), { hour: "2-digit", minute: "2-digit" });
}

/**
 * @param {object} message {id, channel, seat, name, text, at}
 * @param {{who?: HTMLElement, tags?: string[], className?: string}} [parts] `who` replaces the
 *   plain name (the live chat's button), `tags` are shown after it ("watching", "muted")
 */
export function chatLine(message, { who = null, tags = [], className = "" } = {}) {
  return h(
    "li.chat-line",
    {
      class: className,
      dataset: { id: String(message.id ?? ""), channel: message.channel || "" },
    },
    h(
      "span.chat-meta",
      {},
      who || h("bdi.chat-name", {}, message.name),
      tags.map((tag) => h("span.chat-tag", {}, tag)),
      message.at ? h("time.chat-time", { datetime: message.at }, clock(message.at)) : null,
    ),
    h("span.chat-text", { dir: "auto" }, message.text),
  );
}
