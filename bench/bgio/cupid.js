/*
 * Cupid (docs/rules/cupid.md) as a boardgame.io game, for the side-by-side benchmark
 * (bench/load/bgio.py). It follows games/cupid/rules.py move for move, so a match has the
 * same moves as on Parlour: the first dealer drawn, five cards each, the prize trick and
 * the turn-up; a `play` per card, a `draw` by the trick's winner after each of the first
 * six tricks, the prize trick with the eleventh, and a new shuffle each round until a
 * player reaches the target (121 unless setupData says otherwise).
 *
 * G is the whole table; playerView hides what a seat may not see (the other hand, the
 * stock, the prize trick and the collected tricks), as Parlour's views do.
 */

const { INVALID_MOVE } = require("boardgame.io/core");

const HAND_SIZE = 5;
const PRIZE_SIZE = 2;
const TRICKS_PER_ROUND = 11;
const DEFAULT_TARGET = 121;
const CHARACTER_VALUE = 11;
const JOKER = "JK";
const QUEEN = "QD";
const JACK = "JC";
const KING = "KH";
const CHARACTERS = new Set([QUEEN, JACK, KING]);

// The ruled order, low to high: every card has its own place; the Queen takes the King.
const ORDER = [JOKER, QUEEN, "AH", "AS"];
for (let n = 2; n <= 5; n++) ORDER.push(`${n}H`, `${n}S`);
ORDER.push(JACK);
for (let n = 6; n <= 10; n++) ORDER.push(`${n}H`, `${n}S`);
ORDER.push(KING);
const POSITION = new Map(ORDER.map((card, i) => [card, i]));

function beats(card, other) {
  if (card === QUEEN && other === KING) return true;
  if (card === KING && other === QUEEN) return false;
  return POSITION.get(card) > POSITION.get(other);
}

function numberValue(card) {
  const rank = card.slice(0, -1);
  return rank === "A" ? 1 : Number(rank);
}

function trickValue(first, second) {
  if (first === JOKER || second === JOKER) return 0;
  const firstChar = CHARACTERS.has(first);
  const secondChar = CHARACTERS.has(second);
  if (firstChar && secondChar) return 2 * CHARACTER_VALUE;
  if (firstChar) return numberValue(second);
  if (secondChar) return numberValue(first);
  const a = numberValue(first);
  const b = numberValue(second);
  if (first.slice(-1) !== second.slice(-1)) return a + b;
  if (first.slice(-1) === "H") return Math.abs(a - b);
  return 1;
}

function sortedHand(cards) {
  return [...cards].sort((a, b) => POSITION.get(a) - POSITION.get(b));
}

// A fresh deal from `cards` (top first): five each alternately from the non-dealer, the
// prize trick, the turn-up, the stock; the dealer leads the first trick.
function startRound(G, cards, dealer, round) {
  const hands = [[], []];
  const order = [1 - dealer, dealer];
  for (let i = 0; i < 2 * HAND_SIZE; i++) hands[order[i % 2]].push(cards[i]);
  const rest = cards.slice(2 * HAND_SIZE);
  Object.assign(G, {
    round,
    dealer,
    hands: hands.map(sortedHand),
    prize: rest.slice(0, PRIZE_SIZE),
    turnup: [rest[PRIZE_SIZE]],
    stock: rest.slice(PRIZE_SIZE + 1),
    won: [[], []],
    trick: [],
    lastTrick: [],
    lastWinner: -1,
    lastPoints: 0,
    prizePoints: -1,
    phase: "play",
    turn: dealer,
    nextLeader: dealer,
    tricksPlayed: 0,
    roundPoints: [0, 0],
    tricksTaken: [0, 0],
  });
}

function addAt(list, seat, amount) {
  list[seat] += amount;
}

function awardPrize(G, winner, random) {
  const points = trickValue(G.prize[0], G.prize[1]);
  G.won[winner].push(...G.prize);
  G.prize = [];
  G.prizePoints = points;
  addAt(G.scores, winner, points);
  addAt(G.roundPoints, winner, points);
  if (G.scores[winner] >= G.target) {
    G.phase = "over";
    G.winner = winner;
    return;
  }
  // More points deals and leads the next round; equal scores: the last trick's taker.
  const [a, b] = G.scores;
  const dealer = a === b ? winner : a > b ? 0 : 1;
  G.previous = [G.round, G.roundPoints[0], G.roundPoints[1], winner, points];
  startRound(G, random.Shuffle(ORDER), dealer, G.round + 1);
}

function finishTrick(G, random) {
  const [[leadSeat, leadCard], [followSeat, followCard]] = G.trick;
  const winner = beats(followCard, leadCard) ? followSeat : leadSeat;
  const winningCard = winner === followSeat ? followCard : leadCard;
  const points = trickValue(leadCard, followCard);
  // Won with the Jack: the Jack's owner still draws first, but the loser leads.
  G.nextLeader = winningCard === JACK ? 1 - winner : winner;
  G.lastTrick = G.trick;
  G.trick = [];
  G.lastWinner = winner;
  G.lastPoints = points;
  addAt(G.scores, winner, points);
  addAt(G.roundPoints, winner, points);
  addAt(G.tricksTaken, winner, 1);
  G.tricksPlayed += 1;
  if (G.scores[winner] >= G.target) {
    G.phase = "over";
    G.winner = winner;
  } else if (G.tricksPlayed === TRICKS_PER_ROUND) {
    awardPrize(G, winner, random);
  } else if (G.turnup.length > 0) {
    G.phase = "draw";
    G.turn = winner;
  } else {
    G.phase = "play";
    G.turn = G.nextLeader;
  }
}

function play({ G, playerID, random }, card) {
  const seat = Number(playerID);
  const hand = G.hands[seat];
  if (G.phase !== "play" || seat !== G.turn || !hand.includes(card)) return INVALID_MOVE;
  if (G.trick.length === 0 && G.lastTrick.length > 0) {
    // A new trick starts: the shown trick is collected face down.
    G.won[G.lastWinner].push(...G.lastTrick.map(([, c]) => c));
    G.lastTrick = [];
  }
  G.hands[seat] = hand.filter((c) => c !== card);
  G.trick.push([seat, card]);
  if (G.trick.length < 2) {
    G.turn = 1 - seat;
  } else {
    finishTrick(G, random);
  }
}

function draw({ G, playerID }, source) {
  const seat = Number(playerID);
  if (G.phase !== "draw" || seat !== G.turn || (source !== "stock" && source !== "turnup")) {
    return INVALID_MOVE;
  }
  const top = G.stock[0];
  const turnup = G.turnup[0];
  const mine = source === "stock" ? top : turnup;
  const theirs = source === "stock" ? turnup : top;
  G.hands[seat] = sortedHand([...G.hands[seat], mine]);
  G.hands[1 - seat] = sortedHand([...G.hands[1 - seat], theirs]);
  const stock = G.stock.slice(1);
  // A new turn-up is turned while the stock still has cards.
  G.turnup = stock.slice(0, 1);
  G.stock = stock.slice(1);
  G.phase = "play";
  G.turn = G.nextLeader;
}

// What `playerID` may see: its own hand, the other's size, sizes of the face-down piles.
function playerView({ G, playerID }) {
  const seat = playerID === null || playerID === undefined ? -1 : Number(playerID);
  return {
    ...G,
    hands: G.hands.map((hand, i) => (i === seat ? hand : hand.length)),
    stock: G.stock.length,
    prize: G.prize.length,
    won: G.won.map((cards) => cards.length),
  };
}

const Cupid = {
  name: "cupid",
  minPlayers: 2,
  maxPlayers: 2,

  setup({ random }, setupData) {
    const target = setupData?.target ?? DEFAULT_TARGET;
    // Each player draws a card from a shuffled deck; the lower card deals.
    const [first, second] = random.Shuffle(ORDER);
    const dealer = POSITION.get(first) < POSITION.get(second) ? 0 : 1;
    const G = { target, scores: [0, 0], previous: null, winner: -1 };
    startRound(G, random.Shuffle(ORDER), dealer, 1);
    return G;
  },

  validateSetupData(setupData) {
    const target = setupData?.target;
    if (target !== undefined && !(Number.isInteger(target) && target >= 10 && target <= 500)) {
      return "target: a whole number from 10 to 500";
    }
    return undefined;
  },

  // One move a turn; the next turn is the seat the rules await (G.turn).
  turn: {
    minMoves: 1,
    maxMoves: 1,
    order: {
      first: ({ G }) => G.turn,
      next: ({ G }) => G.turn,
    },
  },

  moves: { play, draw },

  endIf: ({ G }) => (G.winner >= 0 ? { winner: String(G.winner) } : undefined),

  playerView,
};

module.exports = { Cupid, beats, trickValue, ORDER };
