import { notifyManager } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { Socket } from 'socket.io-client';
import type { z } from 'zod';
import {
  alarmSchema,
  configAppliedEventSchema,
  deviceAnnouncedEventSchema,
  floatRequestedEventSchema,
  floatUpdatedEventSchema,
  machineStatusEventSchema,
  paymentUpdatedEventSchema,
  saleEventSchema,
  summaryEventSchema,
} from '@wv/contracts';
import { createDeliveryBatcher } from './delivery-batcher';
import { isSessionActive, useSession } from './session';
import { createSocket } from './socket';

/** Every live event (docs/live-events.md, "Events") with the schema its payload is checked against. */
const eventSchemas = {
  sale: saleEventSchema,
  summary: summaryEventSchema,
  'machine.status': machineStatusEventSchema,
  'config.applied': configAppliedEventSchema,
  'float.requested': floatRequestedEventSchema,
  'float.updated': floatUpdatedEventSchema,
  'alarm.opened': alarmSchema,
  'alarm.updated': alarmSchema,
  'payment.updated': paymentUpdatedEventSchema,
  'device.announced': deviceAnnouncedEventSchema,
} as const;

export type LiveEventName = keyof typeof eventSchemas;
export type LivePayload<E extends LiveEventName> = z.infer<(typeof eventSchemas)[E]>;
export type LiveStatus = 'connecting' | 'live' | 'offline';

type Listener = (...args: unknown[]) => void;

interface Shared {
  socket: Socket;
  token: string;
  users: number;
  closeTimer: number | undefined;
}

let shared: Shared | null = null;

/**
 * One connection per signed-in token, shared by every page and widget that listens. It closes a
 * moment after the last listener leaves, so that moving between pages keeps it open.
 */
function acquire(token: string): Socket {
  if (shared && shared.token !== token) {
    shared.socket.disconnect();
    shared = null;
  }
  if (!shared) {
    shared = { socket: createSocket(), token, users: 0, closeTimer: undefined };
    shared.socket.connect();
  }
  window.clearTimeout(shared.closeTimer);
  shared.users += 1;
  return shared.socket;
}

function release(socket: Socket): void {
  if (!shared || shared.socket !== socket) return;
  shared.users -= 1;
  if (shared.users > 0) return;
  const closing = shared;
  closing.closeTimer = window.setTimeout(() => {
    if (shared === closing && closing.users === 0) {
      closing.socket.disconnect();
      shared = null;
    }
  }, 2_000);
}

function useLiveToken(): string | null {
  const session = useSession();
  return isSessionActive(session) ? session.token : null;
}

/** Keeps the newest callback without re-subscribing on every render. */
function useLatest<T>(value: T) {
  const ref = useRef(value);
  useLayoutEffect(() => {
    ref.current = value;
  });
  return ref;
}

/** Live events and reconnections reach the page in batches, each drawn once (React Query's notifications batched). */
const enqueue = createDeliveryBatcher(500, (deliverAll) => notifyManager.batch(deliverAll));

/**
 * Calls `handler` with each valid payload of a live event while the component is mounted and a
 * session is active, in batches (lib/delivery-batcher.ts). A payload that does not match the contract
 * is dropped (and logged).
 */
export function useLiveEvent<E extends LiveEventName>(
  event: E,
  handler: (payload: LivePayload<E>) => void,
  enabled = true,
): void {
  const token = useLiveToken();
  const latest = useLatest(handler);
  useEffect(() => {
    if (!enabled || !token) return;
    const socket = acquire(token);
    let listening = true;
    const listener: Listener = (payload) => {
      const parsed = eventSchemas[event].safeParse(payload);
      if (!parsed.success) {
        console.warn(`Ignored a malformed "${event}" event`, parsed.error);
        return;
      }
      enqueue(() => {
        if (listening) latest.current(parsed.data as LivePayload<E>);
      });
    };
    // The event names are the contract's; socket.io's own typing only knows its reserved events.
    const name: string = event;
    socket.on(name, listener);
    return () => {
      listening = false;
      socket.off(name, listener);
      release(socket);
    };
  }, [event, enabled, token, latest]);
}

/**
 * Calls `onConnect` each time the connection comes up, the first time included: events sent while
 * it was down are lost, so whoever patches the cache from events refetches then.
 */
export function useLiveConnect(onConnect: () => void, enabled = true): void {
  const token = useLiveToken();
  const latest = useLatest(onConnect);
  useEffect(() => {
    if (!enabled || !token) return;
    const socket = acquire(token);
    let listening = true;
    // Through the same batches as the events: an event that came before the connection dropped is applied before
    // the refetch this asks for, never on top of its answer.
    const listener: Listener = () =>
      enqueue(() => {
        if (listening) latest.current();
      });
    socket.on('connect', listener);
    return () => {
      listening = false;
      socket.off('connect', listener);
      release(socket);
    };
  }, [enabled, token, latest]);
}

/** Whether live updates are flowing, for the small indicator beside live screens. */
export function useLiveStatus(): LiveStatus {
  const token = useLiveToken();
  const [status, setStatus] = useState<LiveStatus>('connecting');
  useEffect(() => {
    if (!token) return;
    const socket = acquire(token);
    const update = () => setStatus(socket.connected ? 'live' : socket.active ? 'connecting' : 'offline');
    update();
    const onError: Listener = () => setStatus(socket.active ? 'connecting' : 'offline');
    socket.on('connect', update);
    socket.on('disconnect', update);
    socket.on('connect_error', onError);
    return () => {
      socket.off('connect', update);
      socket.off('disconnect', update);
      socket.off('connect_error', onError);
      release(socket);
    };
  }, [token]);
  return token ? status : 'offline';
}
