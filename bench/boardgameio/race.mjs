// The reference for bench/sequential.py --boardgameio: boardgame.io 0.50.2's server and two
// socket.io clients playing a game of the test game's shape (each move draws a card and
// passes the turn) as fast as they can, in one process.  Prints {"moves_per_second": N}.
import { createRequire } from 'node:module';

// boardgame.io 0.50 ships CommonJS entry points (directories), which ESM cannot import.
const require = createRequire(import.meta.url);
const { Server } = require('boardgame.io/server');
const { Client } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');

const Race = {
  name: 'race',
  setup: () => ({ drawn: 0, score: [0, 0] }),
  turn: { minMoves: 1, maxMoves: 1 },
  moves: {
    draw: ({ G, ctx }) => {
      G.drawn += 1;
      G.score[Number(ctx.currentPlayer)] += G.drawn % 9;
    },
  },
};

const seconds = Number(process.argv[2] || 10);
const port = 30000 + Math.floor(Math.random() * 20000);
const server = Server({ games: [Race], origins: ['*'] });
const running = await server.run(port);
const base = `http://127.0.0.1:${port}`;

// The match is created on the first client's sync, as boardgame.io does for unknown ids.
const matchID = `bench-${port}`;

let moves = 0;
let started = 0;
let stop = false;
const clients = ['0', '1'].map((playerID) => Client({
  game: Race, matchID, playerID, numPlayers: 2,
  multiplayer: SocketIO({ server: base }), debug: false,
}));
await new Promise((resolve) => {
  let done = 0;
  for (const client of clients) {
    let lastTurn = -1;
    client.subscribe((state) => {
      if (!state || stop) return;
      if (state.ctx.currentPlayer === client.playerID && state.ctx.turn !== lastTurn
          && state.isActive !== false) {
        lastTurn = state.ctx.turn;
        if (!started) started = performance.now();
        if (performance.now() - started > seconds * 1000) {
          stop = true;
          resolve();
          return;
        }
        moves += 1;
        client.moves.draw();
      }
    });
    client.start();
    done += 1;
  }
});
const elapsed = (performance.now() - started) / 1000;
for (const client of clients) client.stop();
console.log(JSON.stringify({ moves_per_second: moves / elapsed, moves, seconds: elapsed }));
running.apiServer && running.apiServer.close();
running.appServer.close();
process.exit(0);
