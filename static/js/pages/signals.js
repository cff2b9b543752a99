// signals.js — telling a player it has become their turn when they may not be looking: a
// short chime (the table's "turn" sound, which the table's one sound switch turns off with
// every other sound: table/sounds.js), the tab's title flashing while the tab is hidden, and
// a browser notification while it is hidden. The notification is a switch the browser
// remembers (localStorage), off until turned on — and only then is the browser asked for
// permission. Spectators get none of it: their switch is not shown and no turn of theirs
// ever comes.

import { t } from "../lib/i18n.js";
import { playSound } from "../table/sounds.js";

const NOTIFY_KEY = "parlour-turn-notify";
const FLASH_TEXT = t("🔔 Your turn!");
const FLASH_MS = 1000;

export class TurnSignals {
  /**
   * @param {{panel: HTMLElement, notify: HTMLInputElement, note: HTMLElement}} controls
   *   the notification's switch (templates/room.html, #turn-alerts)
   * @param {() => string} describe what a notification says of the table ("Cupid · K7QMPX")
   */
  constructor({ panel, notify, note }, describe) {
    this.panel = panel;
    this.notifyBox = notify;
    this.note = note;
    this.describe = describe;
    this.wasMine = null; // unknown until the first state: no chime on opening the page
    this.flashing = null;
    this.title = document.title;
    notify.checked = localStorage.getItem(NOTIFY_KEY) === "on" && this.permitted();
    if (!("Notification" in window)) notify.closest("label").hidden = true;
    notify.addEventListener("change", () => this.notifyChanged());
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
        this.note.textContent = t(
          "The browser does not allow notifications from this site; its settings can.",
        );
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
    playSound("turn");
    if (document.visibilityState !== "hidden") return;
    this.startFlashing();
    if (this.notifyBox.checked && this.permitted()) {
      const notice = new Notification(t("Your turn"), {
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
