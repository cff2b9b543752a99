// frames.js — the live table's queue of frames and its pacing. Computer players can move
// faster than a person can follow, so every frame shown stays on screen at least
// MIN_FRAME_MS before the next one replaces it; when more than three are waiting the oldest
// are skipped (each frame is a whole view, so nothing is lost but the sight of a move).
// localStorage "parlour-pace" (milliseconds) changes the pace, for tests and the impatient.

export const DEFAULT_FRAME_MS = 320;
const MAX_WAITING = 3;

function storedPace() {
  const stored = globalThis.localStorage?.getItem("parlour-pace");
  const ms = Number(stored);
  return stored !== null && stored !== undefined && Number.isFinite(ms) && ms >= 0
    ? ms
    : DEFAULT_FRAME_MS;
}

export const MIN_FRAME_MS = storedPace();

export class FrameQueue {
  /** @param {(frame: object) => void} show draws a frame */
  constructor(show) {
    this.show = show;
    this.waiting = [];
    this.lastShownAt = null;
    this.timer = null;
  }

  /** Queue a frame; frames are shown in order, paced. */
  push(frame) {
    this.waiting.push(frame);
    this.drain();
  }

  /** Forget the frames not shown yet (a frame is about to be shown directly). */
  clear() {
    this.waiting = [];
  }

  get length() {
    return this.waiting.length;
  }

  /** The room changed (names, presence): frames not shown yet carry the new one. */
  setRoom(room) {
    for (const frame of this.waiting) frame.room = room;
  }

  drain() {
    if (this.timer || !this.waiting.length) return;
    const wait =
      this.lastShownAt === null ? 0 : this.lastShownAt + MIN_FRAME_MS - performance.now();
    if (wait > 0) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.drain();
      }, wait);
      return;
    }
    let frame = this.waiting.shift();
    while (this.waiting.length > MAX_WAITING) frame = this.waiting.shift();
    this.show(frame);
    this.lastShownAt = performance.now();
    if (this.waiting.length) this.drain();
  }
}
