// credit.js — who played a seat's moves, in words, for history and review. A finished
// match's record says per seat which runs of its moves a computer played standing in for
// its person, how many moves the clock played for them, and whether the seat's result is
// theirs (docs/protocol.md, "Matches").

import { listWords } from "./dom.js";
import { t, tn } from "./i18n.js";

function run({ from, to }) {
  return from === to ? `${from}` : `${from}–${to}`;
}

/** "a computer played moves 61–120", "the clock played 2 moves", or "" — for one seat. */
export function playedBy(player) {
  const parts = [];
  const runs = player.stand_ins || [];
  if (runs.length) {
    const one = runs.length === 1 && runs[0].from === runs[0].to;
    const moves = listWords(runs.map(run));
    parts.push(
      one
        ? t("a computer played move {moves}", { moves })
        : t("a computer played moves {moves}", { moves }),
    );
  }
  if (player.timeouts) {
    parts.push(tn("the clock played {n} move", "the clock played {n} moves", player.timeouts));
  }
  return parts.join("; ");
}

/** Whether the seat's result counts for the one it names. */
export function credited(player) {
  return player.credited !== false;
}
