/*
 * boardgame.io's own server (koa + socket.io, in-memory storage) playing Cupid, for the
 * side-by-side benchmark (bench/load/bgio.py starts it: `node server.js PORT`, with
 * NODE_ENV=production as a deployment runs it). The lobby API and the game sockets share
 * the port; nothing is written anywhere.
 */

const { Server, Origins } = require("boardgame.io/server");
const { Cupid } = require("./cupid");

const port = Number(process.argv[2]);
if (!Number.isInteger(port) || port <= 0) {
  console.error("usage: node server.js PORT");
  process.exit(2);
}

const server = Server({ games: [Cupid], origins: [Origins.LOCALHOST] });
server.run({ port }, () => console.log(`boardgame.io serving Cupid on ${port}`));

// Stopped as the benchmark stops every server: SIGINT, then a clean exit.
process.on("SIGINT", () => process.exit(0));
process.on("SIGTERM", () => process.exit(0));
