// moderation.js — the moderators' page: the open reports with their evidence, and on each
// the actions (warn, mute for a time, ban, delete a reported line, dismiss); a person's
// record (sanctions, recent chat, matches, the reports about them, what moderators did);
// closing a reported table or a match in play; the audit log. Every action asks for
// a reason, which the person and the audit log are told. The server refuses anyone who is
// not a moderator, and the page says so.

import { api, get, post } from "../lib/api.js";
import { $, h, showError } from "../lib/dom.js";
import { date, t, tc } from "../lib/i18n.js";
import { initChrome } from "./common.js";

initChrome();

const MUTES = [
  [60, t("an hour")],
  [1440, t("a day")],
  [10080, t("a week")],
];

function when(iso) {
  return iso ? date(new Date(iso), { dateStyle: "medium", timeStyle: "short" }) : "";
}

/** Run an action (asking its reason first), then draw everything again. */
async function act(what, run) {
  const reason = window.prompt(
    t("Why ({action})? The person and the audit log are told.", { action: what }),
  );
  if (!reason?.trim()) return;
  showError($("#moderation-error"), null);
  try {
    await run(reason.trim());
  } catch (err) {
    showError($("#moderation-error"), err.message);
    return;
  }
  await refresh();
}

function button(label, onclick) {
  return h("button.btn.small", { type: "button", onclick }, label);
}

function lineItem(line) {
  return h(
    "li.chat-line",
    { dataset: { id: String(line.id) } },
    h("span.chat-meta", {}, h("bdi.chat-name", {}, line.name), " ", when(line.at)),
    " ",
    h("span.chat-text", { dir: "auto" }, line.text),
    " ",
    line.deleted
      ? h("span.muted.small", {}, t("(deleted)"))
      : button(t("Delete line"), () =>
          act(t("deleting the line"), (reason) =>
            api("DELETE", `/moderation/chat/${line.id}?reason=${encodeURIComponent(reason)}`),
          ),
        ),
  );
}

/** The actions on a person, answering the reports given. */
function personActions(username, reportIds = []) {
  const with_ = (reason) => ({ username, reason, report_ids: reportIds });
  const minutes = h(
    "select",
    { "aria-label": t("Mute {name} for", { name: username }) },
    MUTES.map(([value, label]) => h("option", { value }, label)),
  );
  return h(
    "div.moderation-actions",
    {},
    button(t("Warn {name}", { name: username }), () =>
      act(t("warning"), (r) => post("/moderation/warnings", with_(r))),
    ),
    minutes,
    button(t("Mute {name}", { name: username }), () =>
      act(t("muting"), (r) =>
        post("/moderation/mutes", { ...with_(r), minutes: Number(minutes.value) }),
      ),
    ),
    button(t("Ban {name}", { name: username }), () =>
      act(t("banning"), (r) => post("/moderation/bans", with_(r))),
    ),
  );
}

/** Close a table (a waiting one closes, a match in play ends as abandoned). */
function closeTable(roomId) {
  return button(t("Close the table"), () =>
    act(t("closing the table"), (reason) =>
      post(`/moderation/rooms/${encodeURIComponent(roomId)}/close`, { reason }),
    ),
  );
}

function reportItem(report) {
  const who = report.username || report.user_id;
  const lines = report.evidence.lines || (report.evidence.line ? [report.evidence.line] : []);
  return h(
    "li.report",
    { dataset: { id: String(report.id) } },
    h(
      "p",
      {},
      h(
        "strong",
        {},
        t("{reporter} reports {name} for {reason}", {
          reporter: report.reporter,
          name: report.name,
          reason: report.reason,
        }),
      ),
      ` · ${when(report.at)}`,
      report.match_id
        ? [" · ", h("a", { href: `/matches/${report.match_id}` }, t("the match"))]
        : [],
    ),
    report.text ? h("p.report-text", { dir: "auto" }, report.text) : null,
    lines.length ? h("ol.chat-list", {}, lines.map(lineItem)) : null,
    personActions(who, [report.id]),
    report.room_id ? closeTable(report.room_id) : null,
    button(tc("report", "Dismiss"), () =>
      act(t("dismissing"), (reason) =>
        post(`/moderation/reports/${report.id}`, { status: "dismissed", reason }),
      ),
    ),
  );
}

function logRow(entry) {
  const on = entry.target || entry.details.room_id || "";
  return h(
    "tr",
    {},
    h("td", {}, when(entry.at)),
    h("td", {}, entry.moderator || t("command line")),
    h("td", {}, entry.action),
    h("td", {}, on),
    h("td", { dir: "auto" }, entry.reason),
  );
}

function personReport(report) {
  return h(
    "li.report",
    { dataset: { id: String(report.id) } },
    h("p", {}, `${report.reporter}: ${report.reason} · ${when(report.at)} · ${report.status}`),
    report.text ? h("p.report-text", { dir: "auto" }, report.text) : null,
  );
}

function personEntry(entry) {
  const moderator = entry.moderator || t("command line");
  return h(
    "li",
    {},
    `${when(entry.at)} · ${moderator} · ${entry.action}: `,
    h("span", { dir: "auto" }, entry.reason),
  );
}

/** "Banned until …: reason", "Muted until lifted: reason". */
function sanctionText(s) {
  const params = { until: when(s.until), reason: s.reason };
  if (s.kind === "ban") {
    return s.until
      ? t("Banned until {until}: {reason}", params)
      : t("Banned until lifted: {reason}", params);
  }
  return s.until
    ? t("Muted until {until}: {reason}", params)
    : t("Muted until lifted: {reason}", params);
}

async function showPerson(key) {
  const record = await get(`/moderation/people/${encodeURIComponent(key)}`);
  const name = record.user.username || record.user.user_id;
  const sanctions = record.sanctions.map((s) =>
    h(
      "li",
      {},
      `${sanctionText(s)} `,
      button(s.kind === "ban" ? t("Unban") : t("Unmute"), () =>
        act(s.kind === "ban" ? t("unbanning") : t("unmuting"), (reason) =>
          api(
            "DELETE",
            `/moderation/${s.kind}s/${encodeURIComponent(name)}?reason=${encodeURIComponent(reason)}`,
          ),
        ),
      ),
    ),
  );
  $("#person").replaceChildren(
    h("h3", {}, record.user.username || t("{name} (guest)", { name: record.user.name })),
    sanctions.length ? h("ul", {}, sanctions) : h("p.muted", {}, t("No mute or ban in force.")),
    personActions(name),
    h("h4", {}, t("Recent chat")),
    h("ol.chat-list", {}, record.chat.map(lineItem)),
    h("h4", {}, t("Recent matches")),
    h(
      "ul",
      {},
      record.matches.map((m) =>
        h(
          "li",
          {},
          h("a", { href: `/matches/${m.id}` }, `${m.game} · ${m.status}`),
          ` ${when(m.started_at)} `,
          m.status === "playing" ? closeTable(m.room_id) : null,
        ),
      ),
    ),
    h("h4", {}, t("Reports about them")),
    record.reports.length
      ? h("ol.report-list", {}, record.reports.map(personReport))
      : h("p.muted", {}, t("None.")),
    h("h4", {}, t("What moderators did")),
    record.log.length
      ? h("ul", {}, record.log.map(personEntry))
      : h("p.muted", {}, t("Nothing yet.")),
  );
}

let shownPerson = "";

async function refresh() {
  try {
    const [{ reports }, { entries }] = await Promise.all([
      get("/moderation/reports"),
      get("/moderation/log"),
    ]);
    $("#reports").replaceChildren(
      ...(reports.length ? reports.map(reportItem) : [h("li.muted", {}, t("No open reports."))]),
    );
    $("#log").tBodies[0].replaceChildren(...entries.map(logRow));
    $("#moderation").hidden = false;
    if (shownPerson) await showPerson(shownPerson);
  } catch (err) {
    showError($("#moderation-error"), err.message);
  }
}

$("#person-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  shownPerson = $("#person-key").value.trim();
  try {
    await showPerson(shownPerson);
  } catch (err) {
    showError($("#moderation-error"), err.message);
  }
});

refresh();
