// registry.js — which table module draws which game, by the server's game name: the one
// place the client lists the games. A game's module (<game>.js) holds everything the client
// knows of it alone — its table parts and the card that pictures it on the home page — and
// its look is static/css/games/<game>.css. Everything else about a game (its title, its pack
// of cards, its seats) comes from the server, in the page's boot data. A game without a
// module of its own gets the generic table.

import coins from "./coins.js";
import cupid from "./cupid.js";
import cups from "./cups.js";
import { genericGame } from "./generic.js";
import usurp from "./usurp.js";
import wifeswap from "./wifeswap.js";

const MODULES = { cupid, coins, cups, usurp, wifeswap };

export function tableModule(name) {
  return MODULES[name] || genericGame;
}
