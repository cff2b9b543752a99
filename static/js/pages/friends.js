// friends.js — the friends page: ask by username; accept or decline asks; your friends,
// who of them has Parlour open and at which public table (a link to join or watch);
// remove a friend, withdraw an ask; block and unblock. Refreshed whenever the live
// channel brings news of friends.

import { del, get, post } from "../lib/api.js";
import { $, announce, boot, gameFacts, h, showError } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { onLive } from "../lib/live.js";
import { initChrome } from "./common.js";

initChrome();

const path = (username) => encodeURIComponent(username);

async function act(call, errorEl, done) {
  showError(errorEl, null);
  try {
    await call();
    if (done) announce(done);
  } catch (err) {
    showError(errorEl, err.message);
  }
  await refresh();
}

function button(label, onclick, cls = "btn.small") {
  return h(`button.${cls}`, { type: "button", onclick }, label);
}

function friendRow(friend) {
  const error = $("#friends-error");
  const where = [];
  if (friend.room_id) {
    const title = gameFacts(friend.game)?.title || friend.game;
    const href = friend.joinable ? `/rooms/${friend.room_id}` : `/rooms/${friend.room_id}/watch`;
    where.push(
      t(" · at "),
      h(
        "a",
        { href },
        friend.joinable ? t("Join {game}", { game: title }) : t("Watch {game}", { game: title }),
      ),
    );
  }
  return h(
    "li.person",
    { dataset: { username: friend.username, online: String(friend.online) } },
    h("span.presence", { "aria-hidden": "true", dataset: { online: String(friend.online) } }),
    h("a", { href: `/players/${path(friend.username)}` }, friend.username),
    h("span.muted.small", {}, friend.online ? t(" online") : t(" away")),
    ...where,
    button(t("Remove"), () =>
      act(
        () => del(`/friends/${path(friend.username)}`),
        error,
        t("{name} removed.", { name: friend.username }),
      ),
    ),
  );
}

function askRow(username, incoming) {
  const error = $("#friends-error");
  return h(
    "li.person",
    { dataset: { username } },
    h("a", { href: `/players/${path(username)}` }, username),
    incoming
      ? button(
          t("Accept"),
          () =>
            act(
              () => post(`/friends/${path(username)}`),
              error,
              t("{name} is your friend.", { name: username }),
            ),
          "btn.primary.small",
        )
      : null,
    button(incoming ? t("Decline") : t("Withdraw"), () =>
      act(() => del(`/friends/${path(username)}`), error),
    ),
  );
}

function blockRow(username) {
  return h(
    "li.person",
    { dataset: { username } },
    h("span", {}, username),
    button(t("Unblock"), () =>
      act(
        () => del(`/blocks/${path(username)}`),
        $("#block-error"),
        t("{name} unblocked.", { name: username }),
      ),
    ),
  );
}

function fill(list, rows, empty) {
  list.replaceChildren(...(rows.length ? rows : [h("li.muted", {}, empty)]));
}

async function refresh() {
  try {
    const [listed, blocked] = await Promise.all([get("/friends"), get("/blocks")]);
    fill($("#friends"), listed.friends.map(friendRow), t("No friends yet: ask someone above."));
    fill(
      $("#incoming"),
      listed.incoming.map((name) => askRow(name, true)),
      "",
    );
    fill(
      $("#outgoing"),
      listed.outgoing.map((name) => askRow(name, false)),
      "",
    );
    $("#incoming-section").hidden = !listed.incoming.length;
    $("#outgoing-section").hidden = !listed.outgoing.length;
    fill($("#blocks"), blocked.blocks.map(blockRow), t("Nobody."));
  } catch (err) {
    showError($("#friends-error"), err.message);
  }
}

function formOf(form, input, run) {
  $(form).addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = $(input).value.trim();
    if (name) await run(name);
    $(input).value = "";
  });
}

if (boot().user?.username) {
  const SAID = {
    friends: (name) => t("{name} is your friend.", { name }),
    asked: (name) => t("Asked {name}.", { name }),
    unchanged: (name) =>
      t("Nothing changed: you and {name} are friends already, or you asked.", { name }),
  };
  formOf("#ask-form", "#ask-name", (name) => {
    // The last answer goes first: it must not stand beside this one's error.
    $("#ask-status").textContent = "";
    return act(async () => {
      const answer = await post(`/friends/${path(name)}`);
      $("#ask-status").textContent = (SAID[answer.status] || SAID.asked)(answer.username);
    }, $("#ask-error"));
  });
  formOf("#block-form", "#block-name", (name) =>
    act(() => post(`/blocks/${path(name)}`), $("#block-error"), t("{name} blocked.", { name })),
  );
  onLive((message) => {
    if (message.type.startsWith("friend_")) refresh();
  });
  refresh();
}
