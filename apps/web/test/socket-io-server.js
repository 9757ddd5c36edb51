import { createServer } from 'node:http';
import { Server } from 'socket.io';

/**
 * A real Socket.IO server standing in for the API's live events. It runs on the Jest environment's
 * side (jsdom-environment.js), outside the page, where `ws` and Node's own modules resolve as on a
 * server; the app connects same-origin, so the page moves to this server's address (`movePage`).
 */
export async function startSocketIoServer(movePage) {
  const http = createServer();
  const io = new Server(http, { transports: ['websocket'] });
  const tokens = [];
  let onConnection = () => {};
  io.on('connection', (socket) => {
    tokens.push(socket.handshake.auth.token);
    onConnection();
  });
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${http.address().port}/`;
  movePage(url);
  return {
    url,
    tokens,
    connected() {
      if (io.of('/').sockets.size > 0) return Promise.resolve();
      return new Promise((resolve) => (onConnection = resolve));
    },
    emit(event, payload) {
      io.emit(event, payload);
    },
    async close() {
      io.disconnectSockets(true);
      await io.close();
    },
  };
}
