// registry.js — which table module draws which game (by the server's game name).

import coins from "./coins.js";
import cupid from "./cupid.js";
import cups from "./cups.js";
import { genericGame } from "./generic.js";
import usurp from "./usurp.js";
import wifeswap from "./wifeswap.js";

const MODULES = { cupid, coins, cups, usurp, wifeswap };
const PACKS = { cups: "tarot", coins: "spanish" };

export function gameModule(name, title) {
  return MODULES[name] || genericGame(name, title || name, PACKS[name] || "french");
}
