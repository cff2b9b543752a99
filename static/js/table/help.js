// help.js — a word of help on each action, in place. Every control that takes a game action
// carries the action's type (`data-help="uprise"`); the room page's boot data holds what each
// type means, from the game's rules (`guide.actions`, app/routes/guide.py). After each
// drawing the table gives every such control an accessible description (aria-describedby,
// pointing at a hidden element that holds the words), and shows the same words in a tooltip
// beside the control while the pointer rests on it or it has the keyboard's focus; Escape
// hides the tooltip.

import { boot, h } from "../lib/dom.js";

export class ActionHelp {
  /** @param {HTMLElement} root the table's element; its controls are described */
  constructor(root) {
    this.root = root;
    this.texts = boot().guide?.actions || {};
    this.tip = null; // the tooltip, made on first use, in the page's body
    this.shownFor = null;
    const show = (event) => {
      const control = event.target.closest?.("[data-help][aria-describedby]");
      if (control && root.contains(control)) this.show(control);
    };
    const hide = (event) => {
      const control = event.target.closest?.("[data-help]");
      if (control && control === this.shownFor) this.hide();
    };
    root.addEventListener("mouseover", show);
    root.addEventListener("focusin", show);
    root.addEventListener("mouseout", hide);
    root.addEventListener("focusout", hide);
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape") this.hide();
    });
  }

  /** After a drawing: describe every control that takes an action with help. */
  attach() {
    this.hide();
    const controls = [...this.root.querySelectorAll("[data-help]")].filter(
      (el) => this.texts[el.dataset.help],
    );
    if (!controls.length) return;
    const types = [...new Set(controls.map((el) => el.dataset.help))];
    // The words, once per action type, hidden: a description may point at hidden text.
    this.root.querySelector(".table")?.append(
      h(
        "div.action-helps",
        { hidden: true },
        types.map((type) => h("span", { id: `help-${type}` }, this.words(type))),
      ),
    );
    for (const el of controls) {
      const ids = (el.getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
      const id = `help-${el.dataset.help}`;
      if (!ids.includes(id)) el.setAttribute("aria-describedby", [...ids, id].join(" "));
    }
  }

  words(type) {
    const { name, text } = this.texts[type];
    return `${name}: ${text}`;
  }

  show(control) {
    this.tip ??= document.body.appendChild(
      h("div.help-tip", { role: "tooltip", "aria-hidden": "true", hidden: true }),
    );
    this.tip.textContent = this.words(control.dataset.help);
    this.tip.hidden = false;
    this.shownFor = control;
    // Above the control (below it when there is no room), kept inside the window. Measured
    // at the window's left edge first: where it was shown last, near the right edge, it would
    // measure narrower than it is and be placed too far right.
    this.tip.style.left = "0px";
    this.tip.style.top = "0px";
    const box = control.getBoundingClientRect();
    const tip = this.tip.getBoundingClientRect();
    const left = Math.max(8, Math.min(box.left, window.innerWidth - tip.width - 8));
    const top = box.top - tip.height - 8 >= 0 ? box.top - tip.height - 8 : box.bottom + 8;
    this.tip.style.left = `${left}px`;
    this.tip.style.top = `${top}px`;
  }

  hide() {
    if (this.tip) this.tip.hidden = true;
    this.shownFor = null;
  }
}
