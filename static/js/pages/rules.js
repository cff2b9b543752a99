// rules.js — the rules page: only the shared header (the text is rendered by the server).
import { initChrome } from "./common.js";

initChrome();
