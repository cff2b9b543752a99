// account.js — the account controls in every page's header: "Sign up" and "Log in" for a
// guest (one dialog, two modes), and for an account its menu: the player page, log out,
// log out everywhere. Signing up keeps every match the guest played. After each of these
// the page is loaded again, so that everything on it belongs to who you are now.

import { post } from "../lib/api.js";
import { $, showError } from "../lib/dom.js";
import { t } from "../lib/i18n.js";

const MODES = {
  signup: {
    title: t("Create an account"),
    text: t(
      "Keep your matches on every device, and play rated tables. Your matches as a guest stay yours.",
    ),
    submit: t("Create the account"),
    path: "/accounts",
    autocomplete: "new-password",
  },
  login: {
    title: t("Log in"),
    text: t("Log in to your account on this device."),
    submit: t("Log in"),
    path: "/login",
    autocomplete: "current-password",
  },
};

function openDialog(mode) {
  const settings = MODES[mode];
  const dialog = $("#account-dialog");
  dialog.dataset.mode = mode;
  $("#account-dialog-title").textContent = settings.title;
  $("#account-dialog-text").textContent = settings.text;
  $("#account-submit").textContent = settings.submit;
  $("#account-password").autocomplete = settings.autocomplete;
  $("#account-password").value = "";
  showError($("#account-error"), null);
  dialog.showModal();
  $("#account-username").focus();
}

function initDialog() {
  const dialog = $("#account-dialog");
  if (!dialog) return;
  $("#account-cancel").addEventListener("click", () => dialog.close());
  $("#account-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const settings = MODES[dialog.dataset.mode] || MODES.login;
    const button = $("#account-submit");
    button.disabled = true;
    try {
      await post(settings.path, {
        username: $("#account-username").value.trim(),
        password: $("#account-password").value,
      });
      location.reload();
    } catch (err) {
      showError($("#account-error"), err.message);
      button.disabled = false;
      $("#account-username").focus();
    }
  });
}

function initMenu() {
  const button = $("#account-button");
  const list = $("#account-list");
  if (!button || !list) return;
  const show = (open) => {
    list.hidden = !open;
    button.setAttribute("aria-expanded", String(open));
  };
  button.addEventListener("click", () => show(list.hidden));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !list.hidden) {
      show(false);
      button.focus();
    }
  });
  document.addEventListener("click", (event) => {
    if (!list.hidden && !event.target.closest(".account-menu")) show(false);
  });
  const logOut = (path) => async () => {
    try {
      await post(path);
      location.assign("/");
    } catch (err) {
      alert(err.message);
    }
  };
  $("#logout-btn").addEventListener("click", logOut("/logout"));
  $("#logout-all-btn").addEventListener("click", logOut("/logout/everywhere"));
}

/** Wire the header's account controls (called by every page through initChrome). */
export function initAccount() {
  initDialog();
  initMenu();
  $("#signup-btn")?.addEventListener("click", () => openDialog("signup"));
  $("#login-btn")?.addEventListener("click", () => openDialog("login"));
}
