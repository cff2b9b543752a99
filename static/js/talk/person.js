// person.js — a live chat line whose writer's name opens a small menu: hide this person's
// lines (for yourself only), report the line to the moderators and, for the host, mute or
// unmute them at the table. Your own lines have no menu.

import { h } from "../lib/dom.js";
import { chatLine } from "./line.js";
import { reportForm } from "./report.js";

/**
 * @param {object} message a chat line from the server
 * @param {{mine: boolean, muted: boolean, host: boolean,
 *   hide: (person: object) => void, mute: (person: object, muted: boolean) => void}} about
 */
export function liveLine(message, { mine, muted, host, hide, mute }) {
  const tags = [];
  if (message.channel === "watchers" && message.seat !== null) tags.push("player");
  if (muted) tags.push("muted");
  if (mine) return chatLine(message, { tags, className: "mine" });
  const person = { user_id: message.user_id, name: message.name };
  const buttons = [
    h(
      "button.btn.small",
      { type: "button", onclick: () => hide(person) },
      `Hide ${message.name}'s messages`,
    ),
  ];
  if (host) {
    buttons.push(
      h(
        "button.btn.small",
        { type: "button", onclick: () => mute(person, !muted) },
        muted ? `Unmute ${message.name}` : `Mute ${message.name}`,
      ),
    );
  }
  const reportButton = h(
    "button.btn.small",
    {
      type: "button",
      onclick: () => {
        reportButton.replaceWith(reportForm({ username: message.name, chat_id: message.id }));
      },
    },
    `Report this message`,
  );
  buttons.push(reportButton);
  const menu = h("div.chat-person", { hidden: true }, buttons);
  const who = h(
    "button.chat-name.linklike",
    {
      type: "button",
      "aria-expanded": "false",
      title: `Options for ${message.name}`,
      onclick: (event) => {
        menu.hidden = !menu.hidden;
        event.currentTarget.setAttribute("aria-expanded", String(!menu.hidden));
      },
    },
    h("bdi", {}, message.name),
  );
  const line = chatLine(message, { who, tags });
  line.append(menu);
  return line;
}
