// i18n.js — the page's words in its language: t("message", {name}) and
// tn("{n} point", "{n} points", n). The server sends the catalogue of the scripts' messages
// in the page (app/i18n/client.py); in English there is none and the ids are the text.
// Numbers, dates and lists are written as the page's language writes them (Intl).
// Every first argument is a string literal, so Babel's extractor finds each message
// (python -m app.i18n update); tests/app/test_client_messages.py checks that.

const CONTEXT = "\u0004"; // gettext's separator between a message's context and its id

let loaded = null;

function catalogue() {
  if (loaded === null) {
    const node = document.getElementById("catalogue");
    loaded = node ? JSON.parse(node.textContent) : { messages: {}, plurals: {} };
  }
  return loaded;
}

/** The page's language, as <html lang> says it. */
export function language() {
  return document.documentElement.lang || "en";
}

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}

/** The message in the page's language, its {placeholders} filled from params. */
export function t(message, params) {
  const found = catalogue().messages[message];
  // A message that is also a plural's singular ("Game Point") has the plural's forms: the
  // first is the singular.
  const text = Array.isArray(found) ? found[0] : found;
  return fill(typeof text === "string" ? text : message, params);
}

/** A message whose translation depends on where it is used (pgettext). */
export function tc(context, message, params) {
  const found = catalogue().messages[`${context}${CONTEXT}${message}`];
  return fill(typeof found === "string" ? found : message, params);
}

let rules = null;

/** The form for n, as the language's plural rules choose it; {n} is n in its digits. */
export function tn(singular, plural, n, params) {
  const forms = catalogue().messages[singular];
  const values = { ...params, n: number(n) };
  if (!Array.isArray(forms)) return fill(n === 1 ? singular : plural, values);
  rules ??= new Intl.PluralRules(language());
  const index = catalogue().plurals[rules.select(n)] ?? forms.length - 1;
  return fill(forms[index] ?? forms[forms.length - 1], values);
}

// Intl's formatters, made once per kind and options: making one takes far longer than
// formatting with it, and a table writes hundreds of numbers as it draws.
const formatters = new Map();

function formatter(Kind, options) {
  const key = `${Kind.name}:${JSON.stringify(options ?? null)}`;
  let made = formatters.get(key);
  if (!made) {
    made = new Kind(language(), options);
    formatters.set(key, made);
  }
  return made;
}

/** A number as the page's language writes it. */
export function number(value, options) {
  return formatter(Intl.NumberFormat, options).format(value);
}

/** "a, b and c": a list of words joined as the page's language joins them. */
export function list(words) {
  if (words.length <= 1) return words.join("");
  // English keeps its own form (no comma before "and"); other languages use Intl's.
  if (language() === "en") return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
  return formatter(Intl.ListFormat, { type: "conjunction" }).format(words);
}

/** A date (and time) as the page's language writes it. */
export function date(value, options = { dateStyle: "medium" }) {
  return formatter(Intl.DateTimeFormat, options).format(value);
}
