// cards.js — the three packs drawn as crisp SVG, with no image files: French (Cupid,
// Royal Wife-Swap, Usurp), Spanish 48-card (Coins) and tarot minor arcana (Cups).
// Card codes are rank then suit, as the server writes them: "10H", "QD", "AO", "PW", "JK".
// Every card element carries its name as text for screen readers ("queen of diamonds").
// The suit shapes live once in a hidden sprite; each card <use>s them.

import { t, tc, tn } from "./i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";

// Each pack's words in the page's language. The same English word names different suits in
// different packs ("clubs" of the French pack are tréboles, the Spanish deck's are Bastos),
// so each pack's words carry its own context.
export const PACKS = {
  french: {
    suits: {
      S: tc("French pack", "spades"),
      H: tc("French pack", "hearts"),
      D: tc("French pack", "diamonds"),
      C: tc("French pack", "clubs"),
    },
    colors: { S: "#1e293b", H: "#c8102e", D: "#c8102e", C: "#1e293b" },
    courts: {
      J: tc("French pack", "Jack"),
      Q: tc("French pack", "Queen"),
      K: tc("French pack", "King"),
    },
  },
  spanish: {
    suits: {
      C: tc("Spanish deck", "cups"),
      O: tc("Spanish deck", "coins"),
      S: tc("Spanish deck", "swords"),
      B: tc("Spanish deck", "clubs"),
    },
    colors: { C: "#b91c1c", O: "#b7791f", S: "#1d4ed8", B: "#15803d" },
    courts: {
      J: tc("Spanish deck", "Knave"),
      N: tc("Spanish deck", "Knight"),
      K: tc("Spanish deck", "King"),
    },
  },
  tarot: {
    suits: {
      C: tc("tarot", "cups"),
      O: tc("tarot", "coins"),
      S: tc("tarot", "swords"),
      W: tc("tarot", "wands"),
    },
    colors: { C: "#9f1239", O: "#a16207", S: "#334155", W: "#166534" },
    courts: {
      P: tc("tarot", "Page"),
      N: tc("tarot", "Knight"),
      Q: tc("tarot", "Queen"),
      K: tc("tarot", "King"),
    },
  },
};

const RANK_WORDS = {
  A: t("ace"),
  J: t("jack"),
  Q: t("queen"),
  K: t("king"),
  N: t("knight"),
  P: t("page"),
};
// The Spanish courts with their Spanish names beside, as the server's accounts name them.
const SPANISH_WORDS = {
  ...RANK_WORDS,
  J: t("knave (Sota)"),
  N: t("knight (Caballo)"),
  K: t("king (Rey)"),
};

const SUIT_SHAPES = {
  "french-H":
    '<path d="M50 90C22 68 6 52 6 32 6 16 18 6 31 6c9 0 16 5 19 13 3-8 10-13 19-13 13 0 25 10 25 26 0 20-16 36-44 58z"/>',
  "french-D": '<path d="M50 4 86 50 50 96 14 50z"/>',
  "french-S":
    '<path d="M50 5C34 26 8 40 8 60c0 13 10 22 22 22 8 0 14-4 17-10-1 10-5 17-13 23h32c-8-6-12-13-13-23 3 6 9 10 17 10 12 0 22-9 22-22 0-20-26-34-42-55z"/>',
  "french-C":
    '<circle cx="50" cy="28" r="19"/><circle cx="27" cy="59" r="19"/><circle cx="73" cy="59" r="19"/><circle cx="50" cy="52" r="10"/><path d="M46 52c0 20-4 32-12 43h32c-8-11-12-23-12-43z"/>',
  // Spanish suits: goblet, gold coin, sword, knotted club.
  "spanish-C":
    '<path d="M20 8h60c0 30-12 44-25 47v19c0 6 12 9 16 17H29c4-8 16-11 16-17V55C32 52 20 38 20 8z"/><path d="M24 14h52" stroke="#fde68a" stroke-width="5" fill="none"/>',
  "spanish-O":
    '<circle cx="50" cy="50" r="42"/><circle cx="50" cy="50" r="32" fill="none" stroke="#fef3c7" stroke-width="5"/><circle cx="50" cy="50" r="11" fill="#fef3c7"/>',
  "spanish-S":
    '<path d="M46 4h8l3 62H43z"/><path d="M26 64h48v8H26z"/><path d="M46 72h8v16h-8z"/><circle cx="50" cy="92" r="6"/>',
  "spanish-B":
    '<path d="M40 94c-3-24-8-54-4-80 3-12 25-12 28 0 4 26-1 56-4 80z"/><circle cx="36" cy="30" r="5" fill="#bbf7d0"/><circle cx="63" cy="46" r="5" fill="#bbf7d0"/><circle cx="39" cy="62" r="5" fill="#bbf7d0"/><circle cx="60" cy="76" r="4" fill="#bbf7d0"/>',
  // Tarot suits: chalice, pentacle, sword, leafy wand.
  "tarot-C":
    '<path d="M18 8h64c0 28-13 42-27 46v20c0 6 13 9 17 17H28c4-8 17-11 17-17V54C31 50 18 36 18 8z"/><circle cx="50" cy="26" r="7" fill="#fecdd3"/>',
  "tarot-O":
    '<circle cx="50" cy="50" r="43"/><path d="M50 16 58 41H84L63 56 71 82 50 66 29 82 37 56 16 41H42z" fill="#fef9c3"/>',
  "tarot-S":
    '<path d="M50 2 56 14 55 64H45L44 14z"/><path d="M24 62c8 5 44 5 52 0v9c-8 5-44 5-52 0z"/><path d="M46 72h8v17h-8z"/><circle cx="50" cy="93" r="6"/>',
  "tarot-W":
    '<path d="M44 96 47 10h6l3 86z"/><path d="M53 26c10-8 20-6 24-2-8 6-16 7-24 2zM47 44c-10-8-20-6-24-2 8 6 16 7 24 2zM53 62c10-8 20-6 24-2-8 6-16 7-24 2z"/><circle cx="50" cy="9" r="6"/>',
};

// Pip centres for number cards inside the face box (x 24..76, y 22..118).
const L = 35;
const C = 50;
const R = 65;
const PIPS = {
  2: [
    [C, 32],
    [C, 108],
  ],
  3: [
    [C, 32],
    [C, 70],
    [C, 108],
  ],
  4: [
    [L, 32],
    [R, 32],
    [L, 108],
    [R, 108],
  ],
  5: [
    [L, 32],
    [R, 32],
    [C, 70],
    [L, 108],
    [R, 108],
  ],
  6: [
    [L, 32],
    [R, 32],
    [L, 70],
    [R, 70],
    [L, 108],
    [R, 108],
  ],
  7: [
    [L, 32],
    [R, 32],
    [C, 51],
    [L, 70],
    [R, 70],
    [L, 108],
    [R, 108],
  ],
  8: [
    [L, 32],
    [R, 32],
    [C, 51],
    [L, 70],
    [R, 70],
    [C, 89],
    [L, 108],
    [R, 108],
  ],
  9: [
    [L, 32],
    [R, 32],
    [L, 57],
    [R, 57],
    [C, 70],
    [L, 83],
    [R, 83],
    [L, 108],
    [R, 108],
  ],
  10: [
    [L, 32],
    [R, 32],
    [C, 45],
    [L, 57],
    [R, 57],
    [L, 83],
    [R, 83],
    [C, 95],
    [L, 108],
    [R, 108],
  ],
};

let spriteReady = false;

/** Put the suit shapes and the back pattern in the page once. */
export function ensureSprite() {
  if (spriteReady || document.getElementById("pl-card-sprite")) {
    spriteReady = true;
    return;
  }
  const symbols = Object.entries(SUIT_SHAPES)
    .map(([key, body]) => `<symbol id="pl-suit-${key}" viewBox="0 0 100 100">${body}</symbol>`)
    .join("");
  const sprite = document.createElementNS(SVG_NS, "svg");
  sprite.setAttribute("id", "pl-card-sprite");
  sprite.setAttribute("aria-hidden", "true");
  sprite.setAttribute("width", "0");
  sprite.setAttribute("height", "0");
  sprite.style.position = "absolute";
  sprite.innerHTML = `<defs>${symbols}
    <pattern id="pl-back-lattice" width="12" height="12" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
      <rect width="12" height="12" fill="#7f1d1d"/>
      <path d="M0 6h12M6 0v12" stroke="#b45309" stroke-width="1.4" opacity=".75"/>
      <circle cx="6" cy="6" r="1.6" fill="#fde68a"/>
    </pattern></defs>`;
  document.body.prepend(sprite);
  spriteReady = true;
}

export function parseCard(code) {
  if (code === "JK") return { rank: "JK", suit: "" };
  return { rank: code.slice(0, -1), suit: code.slice(-1) };
}

/** "queen of diamonds" (lower case, as the server's names), with an optional title. */
export function cardName(code, pack = "french", titles = {}) {
  const title = titles[code] ? `, ${titles[code]}` : "";
  // Babel's extractor does not look inside template literals: each message stands alone.
  const joker = t("joker");
  if (code === "JK") return `${joker}${title}`;
  const { rank, suit } = parseCard(code);
  const words = pack === "spanish" ? SPANISH_WORDS : RANK_WORDS;
  const suitName = PACKS[pack]?.suits[suit] || suit;
  const name = t("{rank} of {suit}", { rank: words[rank] || rank, suit: suitName });
  return `${name}${title}`;
}

/** "Q♦"-style short text for logs: rank plus suit name initial where no symbol exists. */
export function cardShort(code, pack = "french") {
  if (code === "JK") return t("Joker");
  const { rank, suit } = parseCard(code);
  if (pack === "french") return `${rank}${{ S: "♠", H: "♥", D: "♦", C: "♣" }[suit] || suit}`;
  return `${rank} ${PACKS[pack]?.suits[suit] || suit}`;
}

function pip(pack, suit, x, y, size, flip = false) {
  const half = size / 2;
  const transform = flip ? ` transform="rotate(180 ${x} ${y})"` : "";
  return `<use href="#pl-suit-${pack}-${suit}" x="${x - half}" y="${y - half}" width="${size}" height="${size}"${transform}/>`;
}

function corner(rankLabel, pack, suit, color) {
  const size = rankLabel.length > 1 ? 19 : 24;
  return `<g fill="${color}"><text x="13" y="26" font-size="${size}" text-anchor="middle" font-weight="700" font-family="Liberation Sans, Arial, Helvetica, sans-serif" letter-spacing="-1">${rankLabel}</text>${suit ? pip(pack, suit, 13, 38, 15) : ""}</g>`;
}

function figure(rank, pack, suit, color, label) {
  // A simple court figure: a framed portrait with a headpiece by rank and the suit on the chest.
  const heads = {
    K: '<path d="M36 40 38 26 44 33 50 22 56 33 62 26 64 40z" fill="#f59e0b" stroke="#92400e" stroke-width="1.2"/>',
    Q: '<path d="M38 40c2-9 7-13 12-13s10 4 12 13z" fill="#f59e0b" stroke="#92400e" stroke-width="1.2"/><circle cx="50" cy="26" r="3" fill="#f43f5e"/>',
    J: `<path d="M37 41c0-9 6-14 13-14s13 5 13 14z" fill="${color}"/><path d="M62 33l8-6" stroke="${color}" stroke-width="3"/>`,
    P: `<path d="M38 41c0-8 5-12 12-12s12 4 12 12z" fill="${color}"/>`,
    N: '<path d="M37 42c0-11 6-17 13-17s13 6 13 17z" fill="#94a3b8" stroke="#475569" stroke-width="1.2"/><path d="M50 25v-6" stroke="#dc2626" stroke-width="3"/>',
  };
  return `
    <rect x="20" y="18" width="60" height="104" rx="5" fill="${color}" opacity=".1"/>
    <rect x="20" y="18" width="60" height="104" rx="5" fill="none" stroke="${color}" stroke-width="1.5"/>
    <path d="M30 98c0-22 9-34 20-34s20 12 20 34z" fill="${color}" opacity=".85"/>
    <circle cx="50" cy="50" r="12" fill="#fde7d3" stroke="#7c2d12" stroke-width="1"/>
    <circle cx="46" cy="49" r="1.3" fill="#1f2937"/><circle cx="54" cy="49" r="1.3" fill="#1f2937"/>
    <path d="M46 55c2.5 2 5.5 2 8 0" stroke="#7c2d12" stroke-width="1.2" fill="none"/>
    ${heads[rank] || heads.J}
    <circle cx="50" cy="80" r="9.5" fill="#fff"/>
    ${pip(pack, suit, 50, 80, 15)}
    <text x="50" y="114" font-size="10.5" text-anchor="middle" font-weight="700" fill="${color}" font-family="Liberation Sans, Arial, Helvetica, sans-serif" letter-spacing=".5">${label.toUpperCase()}</text>`;
}

function jokerFace(title) {
  return `
    <rect x="20" y="18" width="60" height="104" rx="5" fill="#ede9fe" stroke="#6d28d9" stroke-width="1.5"/>
    <path d="M50 30 57 48 76 48 61 60 67 79 50 67 33 79 39 60 24 48 43 48z" fill="#7c3aed"/>
    <path d="M36 92c4-8 24-8 28 0" stroke="#6d28d9" stroke-width="3" fill="none"/>
    <text x="50" y="113" font-size="10.5" text-anchor="middle" font-weight="700" fill="#6d28d9" font-family="Liberation Sans, Arial, Helvetica, sans-serif">${(title || t("Joker")).toUpperCase()}</text>`;
}

const faceCache = new Map();

/** The SVG markup of a card face. */
export function faceSVG(code, pack = "french", titles = {}) {
  const key = `${pack}:${code}:${titles[code] || ""}`;
  const cached = faceCache.get(key);
  if (cached) return cached;
  const packInfo = PACKS[pack] || PACKS.french;
  let body;
  let corners = "";
  if (code === "JK") {
    const star =
      '<path d="M13 8 16 17 25 17 18 22 21 31 13 25 5 31 8 22 1 17 10 17z" fill="#7c3aed"/>';
    corners = `${star}<g transform="rotate(180 50 70)">${star}</g>`;
    body = jokerFace(titles[code]);
  } else {
    const { rank, suit } = parseCard(code);
    const color = packInfo.colors[suit] || "#1e293b";
    const court = packInfo.courts[rank];
    const label = rank;
    corners = `${corner(label, pack, suit, color)}<g transform="rotate(180 50 70)">${corner(label, pack, suit, color)}</g>`;
    if (court) {
      body = figure(rank, pack, suit, color, titles[code] || court);
    } else if (rank === "A") {
      body = pip(pack, suit, 50, 70, pack === "french" ? 46 : 56);
    } else {
      const spots = PIPS[Number(rank)] || [];
      const size = spots.length > 8 ? 17 : 20;
      body = spots
        .map(([x, y]) => pip(pack, suit, x, y, size, y > 75 && pack === "french"))
        .join("");
      body = `<g fill="${color}">${body}</g>`;
    }
    body = `<g fill="${color}">${body}</g>`;
  }
  const svg = `<svg class="card-svg" viewBox="0 0 100 140" aria-hidden="true" focusable="false"><rect x="1" y="1" width="98" height="138" rx="8" fill="#fffdf8" stroke="#94a3b8" stroke-width="1.5"/>${body}${corners}</svg>`;
  faceCache.set(key, svg);
  return svg;
}

export const BACK_SVG =
  '<svg class="card-svg" viewBox="0 0 100 140" aria-hidden="true" focusable="false"><rect x="1" y="1" width="98" height="138" rx="8" fill="#fff" stroke="#94a3b8" stroke-width="1.5"/><rect x="7" y="7" width="86" height="126" rx="5" fill="url(#pl-back-lattice)"/><rect x="7" y="7" width="86" height="126" rx="5" fill="none" stroke="#fde68a" stroke-width="1.5"/><circle cx="50" cy="70" r="15" fill="#7f1d1d" stroke="#fde68a" stroke-width="2"/><path d="M50 77c-7-5-11-8-11-12 0-3 3-5 5.5-5 2 0 4 1.5 5.5 3.5 1.5-2 3.5-3.5 5.5-3.5 2.5 0 5.5 2 5.5 5 0 4-4 7-11 12z" fill="#fde68a"/></svg>';

/**
 * A card element: <span class="card" data-card="QD" role="img" aria-label="queen of diamonds">.
 * Pass {tag: "button"} for a playable card; {back: true} for a face-down card.
 */
export function cardEl(code, pack = "french", options = {}) {
  ensureSprite();
  const { tag = "span", back = false, titles = {}, className = "", label } = options;
  const el = document.createElement(tag);
  el.className = `card${back ? " back" : ""}${className ? ` ${className}` : ""}`;
  if (back) {
    el.innerHTML = BACK_SVG;
    if (tag === "span") {
      el.setAttribute("role", "img");
      el.setAttribute("aria-label", label || t("face-down card"));
    }
    return el;
  }
  el.dataset.card = code;
  el.innerHTML = faceSVG(code, pack, titles);
  const name = cardName(code, pack, titles);
  if (tag === "span") {
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", label || name);
  }
  // Also as visible-to-AT text, and for find-in-page.
  const text = document.createElement("span");
  text.className = "sr-only card-name";
  text.textContent = name;
  el.append(text);
  return el;
}

/** A small fan of face-down cards showing a count ("5 cards"). */
export function backsEl(count, { max = 6, label } = {}) {
  const fan = document.createElement("span");
  fan.className = "backs";
  fan.setAttribute("role", "img");
  fan.setAttribute("aria-label", label || tn("{n} card", "{n} cards", count));
  const shown = Math.min(count, max);
  for (let i = 0; i < shown; i += 1) {
    const back = document.createElement("span");
    back.className = "card back mini";
    back.innerHTML = BACK_SVG;
    back.style.setProperty("--i", String(i));
    back.style.setProperty("--n", String(shown));
    fan.append(back);
  }
  const badge = document.createElement("span");
  badge.className = "count-badge";
  badge.setAttribute("aria-hidden", "true");
  badge.textContent = String(count);
  fan.append(badge);
  return fan;
}

/** A suit symbol as inline SVG (for legends such as Coins' suit cycle). */
export function suitIcon(pack, suit, label) {
  ensureSprite();
  const color = PACKS[pack]?.colors[suit] || "currentColor";
  const span = document.createElement("span");
  span.className = "suit-icon";
  span.setAttribute("role", "img");
  span.setAttribute("aria-label", label || PACKS[pack]?.suits[suit] || suit);
  span.innerHTML = `<svg viewBox="0 0 100 100" aria-hidden="true" focusable="false" fill="${color}"><use href="#pl-suit-${pack}-${suit}"/></svg>`;
  return span;
}
