import type { IncomingMessage, Server as HttpServer } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

/** Where an upgrade may go: Socket.IO (api role) and MQTT over WebSocket (broker role). */
export interface UpgradeRoutes {
  /** Socket.IO's path, e.g. `/socket.io`, when this process serves live events. */
  socketIoPath?: string;
  /** MQTT over WebSocket, e.g. `/mqtt`, when this process runs the broker. */
  mqttWsPath?: string;
}

/** How long the answer to an unowned upgrade may take to leave before its socket is destroyed. */
const ANSWER_TIMEOUT_MS = 5_000;

/**
 * Gives every HTTP upgrade an owner (docs/security.md, "Anonymous internet"). Node hands an upgrade
 * request's socket to the `upgrade` listeners and then forgets it: no timeout, no parser, no answer.
 * Socket.IO runs with `destroyUpgrade: false` (MQTT over WebSocket shares the server), so an upgrade
 * to any other path used to stay open for good, even in CLOSE-WAIT after the client hung up, and a few
 * thousand of them used up the process's descriptors.
 *
 * This listener runs after the transports' own (it is added last): an upgrade no transport claims
 * gets a `404` (or `400` for a URL that does not parse) and its socket is closed. The predicates copy
 * the transports' own: engine.io takes a raw URL starting with `{path}/`; the MQTT transport takes
 * the exact pathname.
 */
export function ownUpgrades(server: HttpServer, routes: UpgradeRoutes): () => void {
  const listener = (request: IncomingMessage, socket: Duplex) => {
    const status = claimedBy(request, routes) ? undefined : unclaimedStatus(request);
    if (status === undefined) return;
    refuseUpgrade(socket, status);
  };
  server.on('upgrade', listener);
  return () => server.off('upgrade', listener);
}

function claimedBy(request: IncomingMessage, routes: UpgradeRoutes): boolean {
  const url = request.url ?? '';
  if (routes.socketIoPath !== undefined) {
    const prefix = `${routes.socketIoPath.replace(/\/$/, '')}/`;
    if (url.slice(0, prefix.length) === prefix) return true;
  }
  if (routes.mqttWsPath !== undefined && pathnameOf(url) === routes.mqttWsPath) return true;
  return false;
}

function unclaimedStatus(request: IncomingMessage): number {
  return pathnameOf(request.url ?? '') === undefined ? 400 : 404;
}

function pathnameOf(url: string): string | undefined {
  try {
    return new URL(url, 'http://localhost').pathname;
  } catch {
    return undefined;
  }
}

/** Answers with a plain HTTP status and closes the socket once the answer has left (or at once on error). */
export function refuseUpgrade(socket: Duplex, status: number): void {
  socket.on('error', () => socket.destroy());
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const reason = STATUS_CODES[status] ?? 'Error';
  socket.once('finish', () => socket.destroy());
  // A client that never reads its answer must not hold the socket either.
  setTimeout(() => socket.destroy(), ANSWER_TIMEOUT_MS).unref();
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}
