// report-table.js — "Report a player" under the table talk: pick one of the other people
// seated at this table and send the report form (talk/report.js) with the room's id; the
// server attaches the evidence (that person's lines here, the match). Only accounts may
// report, so the menu is shown to them alone, and only while someone else is seated.

import { h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { reportForm } from "./report.js";

/** The other people seated at ``room`` (no computers), by the name the table shows. */
function others(room, me) {
  const seated = room.seats.filter((seat) => seat.user_id && !seat.bot && seat.user_id !== me);
  return [...new Set(seated.map((seat) => seat.name))];
}

export class TableReport {
  /** @param {HTMLDetailsElement} root the menu (a <details>) */
  constructor(root) {
    this.root = root;
    this.drawnFor = "";
  }

  /** Draw the menu for the room as it is now; ``me`` the visitor ({id, username}) or null. */
  update(room, me) {
    const names = me?.username ? others(room, me.id) : [];
    const key = `${room.id}|${names.join("\n")}`;
    this.root.hidden = names.length === 0;
    if (key === this.drawnFor) return;
    this.drawnFor = key;
    const body = h("div.report-person-form");
    const show = (username) =>
      body.replaceChildren(reportForm({ username, room_id: room.id }, () => this.sent()));
    const choice = h(
      "select",
      { "aria-label": t("Who"), onchange: () => show(choice.value) },
      names.map((name) => h("option", { value: name }, name)),
    );
    if (names.length) show(names[0]);
    this.root.replaceChildren(
      h("summary", {}, t("Report a player")),
      names.length > 1 ? choice : null,
      body,
    );
  }

  /** A report went: the next draw offers the form again. */
  sent() {
    this.drawnFor = "";
  }
}
