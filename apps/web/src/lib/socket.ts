import { io, type Socket } from 'socket.io-client';
import { env } from '@/config/env';
import { getToken } from './session';

/**
 * A Socket.IO connection to the default namespace, authenticated with the stored token (docs/live-events.md,
 * "Connecting"). `lib/live.ts` shares one per session; features subscribe to events there and patch the
 * query cache through their query keys. The caller connects and disconnects it.
 */
export function createSocket(): Socket {
  // WebSocket only: with several API processes behind a balancer, no sticky sessions are needed.
  return io({ path: env.socketPath, auth: { token: getToken() }, autoConnect: false, transports: ['websocket'] });
}
