// report.js — the small form that reports a person to the moderators: a reason from the
// server's list, a few words, and where it happened (a chat line, a table); the server
// attaches the evidence itself. Guests are told to sign up (the server's refusal says so).

import { post } from "../lib/api.js";
import { h, showError } from "../lib/dom.js";
import { t } from "../lib/i18n.js";

const REASONS = [
  ["abuse", t("Abuse")],
  ["cheating", t("Cheating")],
  ["spam", t("Spam")],
  ["other", t("Something else")],
];

/**
 * A report form for `about` ({username, chat_id?, room_id?}); `done` is called once sent.
 * @param {{username: string, chat_id?: number, room_id?: string}} about
 * @param {(text: string) => void} [done]
 */
export function reportForm(about, done = () => {}) {
  const reason = h(
    "select",
    { name: "reason", "aria-label": t("Reason") },
    REASONS.map(([value, label]) => h("option", { value }, label)),
  );
  const text = h("textarea", {
    name: "text",
    rows: 2,
    maxlength: 1000,
    "aria-label": t("What {name} did", { name: about.username }),
    placeholder: t("What happened (optional)"),
  });
  const error = h("p.error.small", { role: "alert", hidden: true });
  const form = h(
    "form.report-form",
    {
      onsubmit: async (event) => {
        event.preventDefault();
        showError(error, null);
        try {
          await post("/reports", { ...about, reason: reason.value, text: text.value });
        } catch (err) {
          showError(error, err.message);
          return;
        }
        const sent = t("Thank you: the moderators have your report on {name}.", {
          name: about.username,
        });
        form.replaceChildren(h("p.small", { role: "status" }, sent));
        done(sent);
      },
    },
    reason,
    text,
    h("button.btn.small", { type: "submit" }, t("Report {name}", { name: about.username })),
    error,
  );
  return form;
}
