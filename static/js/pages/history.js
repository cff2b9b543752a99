// history.js — your finished (and abandoned) matches and everyone's public ones, filtered by
// game, player, result and dates, a page at a time (the server's cursor); each with its
// players, result, who played which moves, rating changes and links to its review and
// downloads.

import { get } from "../lib/api.js";
import { $, h, showError } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { matchItem } from "../lib/matches.js";
import { initChrome } from "./common.js";

initChrome();

const PAGE = 20;

/** A list that loads one page at a time from /api/matches with the given filters. */
class MatchList {
  constructor(list, more, empty) {
    this.list = list;
    this.more = more;
    this.empty = empty;
    this.query = null;
    this.cursor = null;
    more.addEventListener("click", () => this.load(false));
  }

  reset(query) {
    this.query = query;
    this.cursor = null;
    this.list.replaceChildren(h("li.muted", {}, t("Loading…")));
    return this.load(true);
  }

  async load(first) {
    const params = new URLSearchParams(this.query);
    params.set("limit", String(PAGE));
    if (!first && this.cursor) params.set("cursor", this.cursor);
    try {
      const page = await get(`/matches?${params}`);
      const items = page.matches.map(matchItem);
      if (first)
        this.list.replaceChildren(...(items.length ? items : [h("li.muted", {}, this.empty)]));
      else this.list.append(...items);
      this.cursor = page.next_cursor;
      this.more.hidden = !this.cursor;
    } catch (err) {
      if (first) this.list.replaceChildren();
      this.more.hidden = true;
      showError($("#history-error"), err.message);
    }
  }
}

const mine = new MatchList(
  $("#mine"),
  $("#mine-more"),
  t("No finished matches of yours match this."),
);
const recent = new MatchList(
  $("#recent"),
  $("#recent-more"),
  t("No finished public matches match this."),
);

function filters() {
  const query = {};
  for (const name of ["game", "player", "result", "since", "until"]) {
    const value = $(`#history-filters [name="${name}"]`).value.trim();
    if (value) query[name] = value;
  }
  return query;
}

function load() {
  showError($("#history-error"), null);
  const query = filters();
  // "Your matches" are the caller's own (or the named player's, when one is named).
  mine.reset(query.player ? query : { ...query, user: "me" });
  $("#mine-title").textContent = query.player
    ? t("Matches of {name}", { name: query.player })
    : t("Your matches");
  const { result, ...everyone } = query;
  recent.reset(query.player ? query : everyone);
}

$("#history-filters").addEventListener("submit", (event) => {
  event.preventDefault();
  load();
});
$("#game-filter").addEventListener("change", load);
load();
