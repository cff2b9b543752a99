// credit.js — who played a seat's moves, in words, for history and review. A finished
// match's record says per seat which runs of its moves a computer played standing in for
// its person, how many moves the clock played for them, and whether the seat's result is
// theirs (docs/protocol.md, "Matches").

import { listWords, plural } from "./dom.js";

function run({ from, to }) {
  return from === to ? `${from}` : `${from}–${to}`;
}

/** "a computer played moves 61–120", "the clock played 2 moves", or "" — for one seat. */
export function playedBy(player) {
  const parts = [];
  const runs = player.stand_ins || [];
  if (runs.length) {
    const moves = runs.length === 1 && runs[0].from === runs[0].to ? "move" : "moves";
    parts.push(`a computer played ${moves} ${listWords(runs.map(run))}`);
  }
  if (player.timeouts) parts.push(`the clock played ${plural(player.timeouts, "move")}`);
  return parts.join("; ");
}

/** Whether the seat's result counts for the one it names. */
export function credited(player) {
  return player.credited !== false;
}
