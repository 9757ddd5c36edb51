/** Connection lifecycle: the connected-client list, counters, the API's status hooks, error logging. */
import type { EventEmitter } from 'node:events';
import type { Aedes, Client } from 'aedes';
import type { ConnectedClient } from './broker.types.js';
import { callHook, errorMessage, remoteAddressOf, type BrokerContext } from './hooks/broker-context.js';
import { classifyAedesError, RefusalError } from './refusal.js';

export function wireBrokerEvents(aedes: Aedes, ctx: BrokerContext, connected: Map<Client, ConnectedClient>): void {
  const { logger, stats } = ctx;

  aedes.on('client', (client) => ctx.sessions.set(client.id, client));

  aedes.on('clientReady', (client) => {
    const identity = ctx.identities.get(client);
    if (!identity) return;
    connected.set(client, { identity, connectedAt: new Date() });
    stats.connectionsAccepted++;
    stats.connectionsCurrent++;
    logger.info('mqtt client connected', { clientId: client.id, kind: identity.kind });
    callHook(ctx, 'onClientConnected', () => ctx.hooks.onClientConnected?.(identity));
  });

  // On a session takeover Aedes closes the old connection before it registers the new one, so the
  // API sees "disconnected" for the old connection before "connected" for the new one.
  aedes.on('clientDisconnect', (client) => {
    if (ctx.sessions.get(client.id) === client) ctx.sessions.delete(client.id);
    const entry = connected.get(client);
    if (!entry) return;
    connected.delete(client);
    stats.connectionsCurrent--;
    logger.info('mqtt client disconnected', { clientId: client.id, kind: entry.identity.kind });
    callHook(ctx, 'onClientDisconnected', () => ctx.hooks.onClientDisconnected?.(entry.identity));
  });

  const onError = (client: Client | undefined, error: Error) => {
    // Our own refusals were counted and logged where they were decided.
    if (error instanceof RefusalError) return;
    const fields = { clientId: client?.id ?? undefined, remoteAddress: client ? remoteAddressOf(client) : undefined };
    const reason = classifyAedesError(error);
    if (reason) {
      stats.refused(reason);
      logger.warn(`mqtt refused: ${error.message}`, { reason, ...fields });
    } else {
      logger.info('mqtt connection ended with an error', { ...fields, error: errorMessage(error) });
    }
  };
  aedes.on('clientError', onError);
  aedes.on('connectionError', onError);
  // Aedes re-emits persistence failures as 'error'; without a listener they would crash the process.
  const emitter: EventEmitter = aedes;
  emitter.on('error', (error: unknown) => logger.error('aedes error', { error: errorMessage(error) }));
}
