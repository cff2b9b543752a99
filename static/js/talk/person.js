// person.js — a live chat line whose writer's name opens a small menu: hide this person's
// lines (for yourself only), report the line to the moderators and, for the host, mute or
// unmute them at the table. Your own lines have no menu.

import { h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { chatLine } from "./line.js";
import { reportForm } from "./report.js";

/**
 * @param {object} message a chat line from the server
 * @param {{mine: boolean, muted: boolean, host: boolean,
 *   hide: (person: object) => void, mute: (person: object, muted: boolean) => void}} about
 */
export function liveLine(message, { mine, muted, host, hide, mute }) {
  const tags = [];
  if (message.channel === "watchers" && message.seat !== null) tags.push(t("player"));
  if (muted) tags.push(t("muted"));
  if (mine) return chatLine(message, { tags, className: "mine" });
  const person = { user_id: message.user_id, name: message.name };
  const buttons = [
    h(
      "button.btn.small",
      { type: "button", onclick: () => hide(person) },
      t("Hide {name}'s messages", { name: message.name }),
    ),
  ];
  if (host) {
    buttons.push(
      h(
        "button.btn.small",
        { type: "button", onclick: () => mute(person, !muted) },
        muted
          ? t("Unmute {name}", { name: message.name })
          : t("Mute {name}", { name: message.name }),
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
    t("Report this message"),
  );
  buttons.push(reportButton);
  const menu = h("div.chat-person", { hidden: true }, buttons);
  const who = h(
    "button.chat-name.linklike",
    {
      type: "button",
      "aria-expanded": "false",
      title: t("Options for {name}", { name: message.name }),
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
