import type { Server } from 'node:net';

/**
 * Starts a server with `start` (its own `listen` call) and resolves with the port it bound (0 asks for
 * a free one); rejects when listening fails, for example a port already taken.
 */
export function listenOn(server: Server, start: (listening: () => void) => void): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    start(() => {
      server.off('error', reject);
      resolve((server.address() as { port: number }).port);
    });
  });
}
