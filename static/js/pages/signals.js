// signals.js — telling a player it has become their turn when they may not be looking: a
// short chime (Web Audio), the tab's title flashing while the tab is hidden, and a browser
// notification while it is hidden. The chime and the notification are each a switch the
// browser remembers (localStorage); the chime is on until turned off, the notification off
// until turned on — and only then is the browser asked for permission. Spectators get none
// of it: their switches are not shown and no turn of theirs ever comes.

const SOUND_KEY = "parlour-turn-sound";
const NOTIFY_KEY = "parlour-turn-notify";
const FLASH_TEXT = "🔔 Your turn!";
const FLASH_MS = 1000;

let audio = null;

/** The page's one AudioContext, made on first use (browsers start it after a gesture). */
function audioContext() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  audio ??= new Context();
  return audio;
}

/** Two short rising notes, quiet. */
function chime() {
  const context = audioContext();
  if (!context) return;
  if (context.state === "suspended") context.resume().catch(() => {});
  const start = context.currentTime;
  for (const [offset, pitch] of [
    [0, 660],
    [0.14, 880],
  ]) {
    const tone = context.createOscillator();
    const volume = context.createGain();
    tone.type = "sine";
    tone.frequency.setValueAtTime(pitch, start + offset);
    volume.gain.setValueAtTime(0.0001, start + offset);
    volume.gain.exponentialRampToValueAtTime(0.15, start + offset + 0.02);
    volume.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.22);
    tone.connect(volume).connect(context.destination);
    tone.start(start + offset);
    tone.stop(start + offset + 0.24);
  }
}

export class TurnSignals {
  /**
   * @param {{panel: HTMLElement, sound: HTMLInputElement, notify: HTMLInputElement,
   *   note: HTMLElement}} controls the switches (templates/room.html, #turn-alerts)
   * @param {() => string} describe what a notification says of the table ("Cupid · K7QMPX")
   */
  constructor({ panel, sound, notify, note }, describe) {
    this.panel = panel;
    this.soundBox = sound;
    this.notifyBox = notify;
    this.note = note;
    this.describe = describe;
    this.wasMine = null; // unknown until the first state: no chime on opening the page
    this.flashing = null;
    this.title = document.title;
    sound.checked = localStorage.getItem(SOUND_KEY) !== "off";
    notify.checked = localStorage.getItem(NOTIFY_KEY) === "on" && this.permitted();
    if (!("Notification" in window)) notify.closest("label").hidden = true;
    sound.addEventListener("change", () => {
      localStorage.setItem(SOUND_KEY, sound.checked ? "on" : "off");
      if (sound.checked) audioContext(); // this click lets the page play sound later
    });
    notify.addEventListener("change", () => this.notifyChanged());
    // A first gesture anywhere lets the page play sound for the rest of its life.
    const unlock = () => {
      if (sound.checked)
        audioContext()
          ?.resume?.()
          .catch(() => {});
    };
    document.addEventListener("pointerdown", unlock, { once: true });
    document.addEventListener("keydown", unlock, { once: true });
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.stopFlashing();
    });
  }

  permitted() {
    return "Notification" in window && Notification.permission === "granted";
  }

  async notifyChanged() {
    const box = this.notifyBox;
    this.note.textContent = "";
    if (box.checked && !this.permitted()) {
      const answer = await Notification.requestPermission();
      if (answer !== "granted") {
        box.checked = false;
        this.note.textContent =
          "The browser does not allow notifications from this site; its settings can.";
      }
    }
    localStorage.setItem(NOTIFY_KEY, box.checked ? "on" : "off");
  }

  /** Whether the switches are shown: only to a player. */
  seated(isSeated) {
    this.panel.hidden = !isSeated;
  }

  /** A state arrived for `seat` (null: watching): signal when it has just become theirs. */
  update(seat, view) {
    const mine = seat !== null && !view.over && (view.to_act || []).includes(seat);
    if (mine && this.wasMine === false) this.cue();
    if (!mine) this.stopFlashing();
    this.wasMine = mine;
  }

  cue() {
    if (this.soundBox.checked) chime();
    if (document.visibilityState !== "hidden") return;
    this.startFlashing();
    if (this.notifyBox.checked && this.permitted()) {
      const notice = new Notification("Your turn", {
        body: this.describe(),
        tag: "parlour-your-turn",
      });
      notice.onclick = () => {
        window.focus();
        notice.close();
      };
    }
  }

  startFlashing() {
    if (this.flashing) return;
    this.flashing = setInterval(() => {
      // The table sets the title as it goes; flashing alternates with whatever it set last.
      if (document.title === FLASH_TEXT) document.title = this.title;
      else {
        this.title = document.title;
        document.title = FLASH_TEXT;
      }
    }, FLASH_MS);
  }

  stopFlashing() {
    if (!this.flashing) return;
    clearInterval(this.flashing);
    this.flashing = null;
    if (document.title === FLASH_TEXT) document.title = this.title;
  }
}
