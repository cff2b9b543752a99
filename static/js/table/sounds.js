// sounds.js — the table's sounds, synthesised with the Web Audio API (no sound files): a card
// played, a trick taken, a shuffle for a new deal, the your-turn chime and the low-time
// warning. One switch, the "Sound" button on the table, turns every one of them on or off; the
// browser remembers it (localStorage `parlour-sound`, on until turned off). Browsers let a
// page start sound only after a gesture, so the first click or key press anywhere opens the
// page's one AudioContext. Each sound played is also told to the page as a `parlour-sound`
// event on the document (its name in `detail`), where a test can hear what the page played.

import { h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";

const KEY = "parlour-sound";

// Each sound as notes: [start (s), pitch (Hz), length (s), volume, wave].
const SOUNDS = {
  card: [[0, 520, 0.07, 0.12, "triangle"]],
  trick: [
    [0, 392, 0.09, 0.12, "triangle"],
    [0.08, 523, 0.14, 0.12, "triangle"],
  ],
  shuffle: [0, 0.04, 0.08, 0.12, 0.16, 0.2, 0.24].map((at, i) => [
    at,
    300 + (i % 2) * 90,
    0.03,
    0.06,
    "square",
  ]),
  turn: [
    [0, 660, 0.22, 0.15, "sine"],
    [0.14, 880, 0.22, 0.15, "sine"],
  ],
  "low-time": [
    [0, 988, 0.1, 0.15, "square"],
    [0.18, 988, 0.1, 0.15, "square"],
    [0.36, 988, 0.1, 0.15, "square"],
  ],
};

let audio = null;
let armed = false;
let gestured = false; // the page has had its first click or key press

/** Whether sounds are on (the one switch, on until turned off). */
export function soundOn() {
  return localStorage.getItem(KEY) !== "off";
}

function setSound(on) {
  localStorage.setItem(KEY, on ? "on" : "off");
  if (on) context(); // this click lets the page play sound from now on
}

/** The page's one AudioContext, made on first use (browsers start it after a gesture). */
function context() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  audio ??= new Context();
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

/** The first gesture anywhere on the page lets it play sound for the rest of its life. */
export function armSounds() {
  if (armed) return;
  armed = true;
  const unlock = () => {
    gestured = true;
    if (soundOn()) context();
  };
  document.addEventListener("pointerdown", unlock, { once: true });
  document.addEventListener("keydown", unlock, { once: true });
}

/** Play the sound `name` (one of SOUNDS) — unless sounds are off. */
export function playSound(name) {
  const notes = SOUNDS[name];
  if (!notes || !soundOn()) return;
  document.dispatchEvent(new CustomEvent("parlour-sound", { detail: name }));
  // Before the page's first gesture a browser keeps a new AudioContext silent, and making
  // one costs a phone a tenth of a second while the table is first drawn: wait for it.
  if (!audio && !gestured) return;
  const ctx = context();
  if (!ctx) return;
  const start = ctx.currentTime;
  for (const [offset, pitch, length, loudness, wave] of notes) {
    const tone = ctx.createOscillator();
    const volume = ctx.createGain();
    const at = start + offset;
    tone.type = wave;
    tone.frequency.setValueAtTime(pitch, at);
    volume.gain.setValueAtTime(0.0001, at);
    volume.gain.exponentialRampToValueAtTime(loudness, at + 0.01);
    volume.gain.exponentialRampToValueAtTime(0.0001, at + length);
    tone.connect(volume).connect(ctx.destination);
    tone.start(at);
    tone.stop(at + length + 0.02);
  }
}

/** The sound of the move that led from `previous` to `frame` on a live table: a new deal
 *  (the match's first, or the dealer changed) shuffles, a completed trick is taken, any
 *  other move is a card played. Nothing for a frame seen again or the first one opened. */
export function moveSound(frame, previous) {
  if (frame.version === previous?.version) return;
  if (!previous) {
    if (frame.version === 0) playSound("shuffle");
    return;
  }
  if (!frame.event) return;
  if (frame.view.dealer !== previous.view.dealer) playSound("shuffle");
  else if (frame.event.trick) playSound("trick");
  else playSound("card");
}

/** The table's sound switch: a toggle button, pressed while sounds are on. */
export function soundToggle() {
  const button = h(
    "button.btn.small.ghost.sound-toggle",
    {
      type: "button",
      "data-key": "sound",
      "aria-pressed": String(soundOn()),
      title: t("Sounds: moves, your turn, low time"),
      onclick: () => {
        setSound(!soundOn());
        button.setAttribute("aria-pressed", String(soundOn()));
      },
    },
    h("span.sound-icon", { "aria-hidden": "true" }),
    h("span.tool-label", {}, t("Sound")),
  );
  return button;
}
