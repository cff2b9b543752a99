// review.js — step through a finished match move by move (GET /api/matches/{id}/review):
// every hand shown, the move described (and who made it, where a computer stood in or the
// clock played), the score progression drawn as a chart with a marker at the current move,
// the table talk up to that move (what was said at this move marked), the list of every
// move (move-list.js), which shows a move when it is chosen, and the computer's analysis
// beside it (review-analysis.js). Keyboard: ← → step, Home/End jump, Space plays.

import { get } from "../lib/api.js";
import { credited, playedBy } from "../lib/credit.js";
import { $, boot, formatDate, h, listWords, showError } from "../lib/dom.js";
import { t, tn } from "../lib/i18n.js";
import { Table } from "../table/table.js";
import { chatLine } from "../talk/line.js";
import { initChrome } from "./common.js";
import { MoveList } from "./move-list.js";
import { reviewAnalysis } from "./review-analysis.js";

initChrome();

const SVG_NS = "http://www.w3.org/2000/svg";
const COLORS = ["#2563eb", "#dc2626", "#16a34a", "#d97706", "#7c3aed", "#0891b2"];

const PLAY_ICON =
  '<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M7 5v14l12-7z"/></svg>';
const PAUSE_ICON =
  '<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M6 5h4v14H6zM14 5h4v14h-4z"/></svg>';

const data = boot();
let frames = [];
let step = 0;
let record = null;
let table = null;
let game = null;
let room = null;
let playing = null;
let talk = []; // what was said, each line with the version (move) it was said at
let moveList = null;
let analysis = null;

function svg(tag, attrs = {}) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

function describe(index) {
  const frame = frames[index];
  if (!frame.event) return t("The deal. Every hand is shown face up.");
  const ctx = table.context({ room, view: frame.view, version: index, seat: null });
  // The server's account of the move: the words the table's log used.
  return `${ctx.words(frame.event.text)}${who(frame.event)}`;
}

/** Who made a move, when it was not the seat's own player. */
function who(event) {
  const player = (record.seats || []).find((p) => p.seat === event.seat);
  if (event.timeout) return t(" (time ran out: the clock played this move)");
  if (event.by?.bot && player?.user_id) return t(" (played by a computer standing in)");
  return "";
}

/** The numbers the chart follows: the game's choice (e.g. Usurp's Hand Points) or the scores. */
function series(frame) {
  return game.progress ? game.progress(frame.view, frame.scores) : frame.scores;
}

function chart() {
  const seats = record.seat_count;
  const width = 320;
  const height = 160;
  const pad = 24;
  const values = frames.map(series);
  const max = Math.max(1, ...values.flat());
  const x = (i) => pad + ((width - pad * 2) * i) / Math.max(1, frames.length - 1);
  const y = (v) => height - pad - ((height - pad * 2) * v) / max;
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", class: "chart" });
  const final = values[values.length - 1];
  root.setAttribute(
    "aria-label",
    tn(
      "Scores over {n} move. Final: {scores}",
      "Scores over {n} moves. Final: {scores}",
      frames.length - 1,
      {
        scores: final.map((s, i) => `${room.seats[i].name} ${s}`).join(", "),
      },
    ),
  );
  root.append(
    svg("line", { x1: pad, y1: height - pad, x2: width - pad, y2: height - pad, class: "axis" }),
  );
  root.append(svg("line", { x1: pad, y1: pad, x2: pad, y2: height - pad, class: "axis" }));
  const label = svg("text", { x: pad - 4, y: pad + 4, "text-anchor": "end", class: "axis-label" });
  label.textContent = String(max);
  root.append(label);
  for (let seat = 0; seat < seats; seat += 1) {
    const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v[seat]).toFixed(1)}`).join(" ");
    root.append(
      svg("polyline", {
        points,
        fill: "none",
        stroke: COLORS[seat % COLORS.length],
        "stroke-width": 2.5,
        "stroke-linejoin": "round",
      }),
    );
  }
  const marker = svg("line", {
    x1: x(0),
    y1: pad / 2,
    x2: x(0),
    y2: height - pad,
    class: "marker",
  });
  root.append(marker);
  root.addEventListener("click", (event) => {
    const box = root.getBoundingClientRect();
    const rel = ((event.clientX - box.left) / box.width) * width;
    const index = Math.round(((rel - pad) / (width - pad * 2)) * (frames.length - 1));
    go(Math.max(0, Math.min(frames.length - 1, index)));
  });
  const legend = h(
    "ul.chart-legend",
    {},
    room.seats.map((s, i) =>
      h(
        "li",
        {},
        h("span.swatch", { style: { background: COLORS[i % COLORS.length] } }),
        s.name,
        " ",
        h("strong", { dataset: { legendScore: String(i) } }, "0"),
      ),
    ),
  );
  const heading = $("#score-chart").previousElementSibling;
  if (heading && game.progressLabel) heading.textContent = game.progressLabel;
  $("#score-chart").replaceChildren(root, legend);
  return { marker, x };
}

let chartParts = null;

/** The talk up to move `index`, newest last; what was said at this move is marked. */
function drawTalk(index) {
  const list = $("#review-talk-list");
  const said = talk.filter((line) => line.version <= index);
  const now = said.filter((line) => line.version === index).length;
  $("#review-talk-note").textContent = now
    ? tn("{n} line said at this move.", "{n} lines said at this move.", now)
    : t("Nothing said at this move.");
  list.replaceChildren(
    ...(said.length
      ? said.map((line) =>
          chatLine(line, {
            tags: [
              line.channel === "watchers" ? t("watching") : null,
              t("move {number}", { number: line.version }),
            ].filter(Boolean),
            className: line.version === index ? "now" : "",
          }),
        )
      : [h("li.chat-empty", {}, t("Nothing said yet."))]),
  );
  list.scrollTop = list.scrollHeight;
}

function go(index, animate = true) {
  step = Math.max(0, Math.min(frames.length - 1, index));
  const frame = frames[step];
  table.show(
    { room, view: frame.view, version: step, seat: null, hands: frame.hands, event: frame.event },
    { animate },
  );
  $("#step-slider").value = String(step);
  $("#step-label").textContent = t("Move {number} of {count}", {
    number: step,
    count: frames.length - 1,
  });
  $("#review-event").textContent = describe(step);
  chartParts.marker.setAttribute("x1", chartParts.x(step));
  chartParts.marker.setAttribute("x2", chartParts.x(step));
  for (const el of document.querySelectorAll("[data-legend-score]")) {
    el.textContent = String(series(frame)[Number(el.dataset.legendScore)]);
  }
  drawTalk(step);
  moveList.current(step);
  analysis?.show(step);
  $("#first-step").disabled = $("#prev-step").disabled = step === 0;
  $("#last-step").disabled = $("#next-step").disabled = step === frames.length - 1;
}

function togglePlay() {
  const button = $("#play-steps");
  if (playing) {
    clearInterval(playing);
    playing = null;
    button.innerHTML = PLAY_ICON;
    button.setAttribute("aria-label", t("Play"));
    return;
  }
  if (step >= frames.length - 1) go(0);
  button.innerHTML = PAUSE_ICON;
  button.setAttribute("aria-label", t("Pause"));
  playing = setInterval(() => {
    if (step >= frames.length - 1) togglePlay();
    else go(step + 1);
  }, 700);
}

function facts() {
  const winners = (record.winners || []).map((s) => room.seats[s].name);
  const items = [
    [t("Game"), record.title],
    [t("Players"), room.seats.map((s) => s.name).join(", ")],
    ...(record.seats || [])
      .filter((p) => playedBy(p))
      .map((p) => {
        const note = t(" — the result is not counted as {name}'s", { name: p.name });
        return [p.name, `${playedBy(p)}${credited(p) ? "" : note}`];
      }),
    [t("Winner"), listWords(winners) || "—"],
    [
      t("Final score"),
      record.scores ? record.scores.map((s, i) => `${room.seats[i].name} ${s}`).join(" · ") : "—",
    ],
    [t("Finished"), formatDate(record.finished_at)],
    [t("Options"), (record.options_text || []).join(" · ") || "—"],
    // The seed and its hash are shown in a fixed-width font.
    [t("Seed"), record.seed || "—", "mono"],
    [t("Seed hash"), record.seed_hash || "—", "mono"],
  ];
  const base = `/api/matches/${record.id}`;
  items.push([
    t("Download"),
    h(
      "span.row.wrap",
      {},
      h("a", { href: `${base}/record.json`, download: "" }, t("Record (JSON)")),
      h("a", { href: `${base}/transcript.txt`, download: "" }, t("Transcript (text)")),
    ),
  ]);
  $("#match-facts").replaceChildren(
    ...items.flatMap(([k, v, mono]) => [h("dt", {}, k), h("dd", { class: mono || "" }, v)]),
  );
}

async function init() {
  try {
    const review = await get(`/matches/${encodeURIComponent(data.match)}/review`);
    record = review.match;
    frames = review.frames;
    talk = review.chat || [];
  } catch (err) {
    showError($("#review-error"), err.message);
    $("#review-controls").hidden = true;
    $("#review").setAttribute("aria-busy", "false");
    return;
  }
  const seats = Array.from({ length: record.seat_count }, (_, i) => {
    const player = (record.seats || []).find((p) => p.seat === i);
    return {
      seat: i,
      name: player?.name || t("Seat {number}", { number: i + 1 }),
      bot: player?.bot || null,
      user_id: player?.user_id || null,
      connected: true,
    };
  });
  room = {
    id: record.room_id,
    title: record.title,
    game: record.game,
    seat_count: record.seat_count,
    seats,
    match_id: record.id,
  };
  table = new Table($("#table-wrap"), record.game, {
    mode: "review",
    ratingChanges: async () => record.ratings || [],
  });
  game = table.game;
  const versus = t(" vs ");
  $("#review-title").textContent = t("{game}: {players}", {
    game: record.title,
    players: seats.map((s) => s.name).join(versus),
  });
  document.title = t("Review · {game} · Parlour", { game: record.title });
  // The controls are on the page from the start (review.html), disabled until now.
  $("#play-steps").disabled = $("#step-slider").disabled = false;
  const slider = $("#step-slider");
  slider.max = String(frames.length - 1);
  slider.addEventListener("input", () => go(Number(slider.value), false));
  $("#first-step").addEventListener("click", () => go(0));
  $("#prev-step").addEventListener("click", () => go(step - 1));
  $("#next-step").addEventListener("click", () => go(step + 1));
  $("#last-step").addEventListener("click", () => go(frames.length - 1));
  $("#play-steps").addEventListener("click", togglePlay);
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, select, textarea, dialog")) return;
    if (event.key === "ArrowRight") go(step + 1);
    else if (event.key === "ArrowLeft") go(step - 1);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(frames.length - 1);
    else if (event.key === " " && !event.target.closest("button")) togglePlay();
    else return;
    event.preventDefault();
  });
  chartParts = chart();
  moveList = new MoveList(
    $("#move-list"),
    frames.map((_, index) => describe(index)),
    (index) => go(index),
  );
  analysis = reviewAnalysis({
    matchId: record.id,
    seats,
    colors: COLORS,
    cardName: (code) => table.context({ room, view: frames[0].view, seat: null }).cardName(code),
    moveText: describe,
    go,
  });
  facts();
  $("#review-talk").hidden = !talk.length;
  go(0, false);
  $("#review").setAttribute("aria-busy", "false");
}

init();
