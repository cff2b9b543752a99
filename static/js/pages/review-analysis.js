// review-analysis.js — the computer's analysis in the review (GET /api/matches/{id}/analysis):
// "Analysis pending" until the server has judged every decision (asked again every few
// seconds), then each player's accuracy, a chart of each player's expected score at every
// judged move, the judged moves listed with their marks (?! inaccuracy, ? mistake,
// ?? blunder, □ forced; each with its name for screen readers) that jump to the move, and
// at the current move what the computer would have played and what it was worth. The
// review page makes one with `reviewAnalysis(...)` and calls `show(step)` at every step;
// the space it takes is kept from the start, so nothing moves when it arrives.

import { get } from "../lib/api.js";
import { linesChart } from "../lib/chart.js";
import { $, h } from "../lib/dom.js";
import { number, t, tn } from "../lib/i18n.js";

const POLL_MS = 4000;
const MARKS = {
  inaccuracy: { glyph: "?!", name: t("Inaccuracy") },
  mistake: { glyph: "?", name: t("Mistake") },
  blunder: { glyph: "??", name: t("Blunder") },
  forced: { glyph: "□", name: t("Forced") },
};

/** A decision's mark as a glyph with its name (null when it earned none). */
export function markBadge(mark) {
  const known = MARKS[mark];
  if (!known) return null;
  return h(
    `span.analysis-mark.mark-${mark}`,
    { role: "img", "aria-label": known.name, title: known.name, dataset: { mark } },
    known.glyph,
  );
}

function amount(loss, unit) {
  const rounded = Math.round(loss * 10) / 10;
  // The unit is the server's word for the game's points, in the page's language already.
  return `${number(rounded)} ${rounded === 1 && unit.endsWith("s") ? unit.slice(0, -1) : unit}`;
}

/**
 * @param {object} options
 * @param {string} options.matchId
 * @param {{name: string}[]} options.seats the players, by seat
 * @param {string[]} options.colors each seat's colour in the review's charts
 * @param {(code: string) => string} options.cardName a card's name in the match's pack
 * @param {(step: number) => string} options.moveText the review's account of move `step`
 * @param {(step: number) => void} options.go show move `step`
 */
export function reviewAnalysis({ matchId, seats, colors, cardName, moveText, go }) {
  const section = $("#review-analysis");
  const status = $("#analysis-status");
  const verdict = $("#review-verdict");
  let analysis = null;
  let bySeq = new Map();
  let current = 0;

  function better(decision) {
    if (decision.best.card) return t("the {card}", { card: cardName(decision.best.card) });
    return t("this: {move}", { move: decision.best_text || decision.best.type });
  }

  function showVerdict(step) {
    const decision = analysis ? bySeq.get(step) : null;
    if (!decision) {
      verdict.replaceChildren();
      return;
    }
    const badge = markBadge(decision.mark);
    const name = seats[decision.seat]?.name || t("Seat {number}", { number: decision.seat + 1 });
    let words;
    if (decision.mark === "forced") words = t("{name} had no choice worth making here.", { name });
    else if (decision.loss === 0) words = t("{name} played the computer's choice.", { name });
    else
      words = t("The computer would have played {move}: {amount} better for {name}, on average.", {
        move: better(decision),
        amount: amount(decision.loss, analysis.unit),
        name,
      });
    verdict.replaceChildren(...(badge ? [badge, " "] : []), h("span", {}, words));
  }

  function moveItem(decision) {
    const badge = markBadge(decision.mark);
    return h(
      "li",
      { dataset: { seq: String(decision.seq) } },
      h(
        "button.analysis-move",
        { type: "button", onclick: () => go(decision.seq) },
        h("span.analysis-move-number", {}, `${decision.seq}.`),
        " ",
        h("span.analysis-move-text", {}, moveText(decision.seq)),
        ...(badge ? [" ", badge] : []),
        decision.loss > 0 && decision.mark !== "forced"
          ? h("span.analysis-move-loss", {}, ` −${amount(decision.loss, analysis.unit)}`)
          : null,
      ),
    );
  }

  function draw() {
    const decisions = analysis.decisions;
    bySeq = new Map(decisions.map((d) => [d.seq, d]));
    const accuracy = Object.entries(analysis.accuracy).map(([seat, figure]) => {
      const name = seats[Number(seat)]?.name || t("Seat {number}", { number: Number(seat) + 1 });
      const percent = number(figure / 100, { style: "percent", maximumFractionDigits: 3 });
      return `${name} ${percent}`;
    });
    status.textContent = accuracy.length
      ? t("Accuracy: {list}", { list: accuracy.join(" · ") })
      : t("No move of a person to judge.");
    const lines = seats.map((_, seat) => decisions.map((d) => d.expected[seat]));
    const chart = decisions.length
      ? linesChart(lines, {
          label: tn(
            "Each player's expected score ({unit}) at each of {n} judged move.",
            "Each player's expected score ({unit}) at each of {n} judged moves.",
            decisions.length,
            { unit: analysis.unit },
          ),
          colors,
          titles: decisions.map((d) => t("Move {number}", { number: d.seq })),
        })
      : null;
    $("#analysis-chart").replaceChildren(...(chart ? [chart] : []));
    $("#analysis-moves").replaceChildren(...decisions.map(moveItem));
    // Each judged move's mark on the review's list of every move too (move-list.js keeps
    // a place for it in each entry, by step: a move's step is its seq).
    for (const decision of decisions) {
      const badge = markBadge(decision.mark);
      const slot = document.querySelector(`.move-marks[data-step="${decision.seq}"]`);
      if (slot) slot.replaceChildren(...(badge ? [badge] : []));
    }
    section.setAttribute("aria-busy", "false");
    showVerdict(current);
  }

  async function load() {
    try {
      const answer = await get(`/matches/${encodeURIComponent(matchId)}/analysis`);
      if (answer.status === "done") {
        analysis = answer;
        draw();
        return;
      }
      status.textContent = t("Analysis pending: the computer is going through the moves.");
    } catch (err) {
      status.textContent = t("The analysis could not be loaded ({error}); trying again.", {
        error: err.message,
      });
    }
    setTimeout(load, POLL_MS);
  }

  section.hidden = false;
  load();
  return {
    /** The review moved to `step`. */
    show(step) {
      current = step;
      showVerdict(step);
      for (const item of document.querySelectorAll("#analysis-moves li")) {
        item.classList.toggle("now", Number(item.dataset.seq) === step);
      }
    },
  };
}
