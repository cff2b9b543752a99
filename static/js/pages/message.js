// message.js — plain message pages (not found and the like): only the shared header.
import { initChrome } from "./common.js";

initChrome();
