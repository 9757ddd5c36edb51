import type { EventEmitter } from 'node:events';

/** Resolves when `ready()` holds, checked now and on each `event`; rejects with `why()` after `timeoutMs`. */
export function waitForCondition(
  emitter: EventEmitter,
  event: string,
  ready: () => boolean,
  timeoutMs: number,
  why: () => string,
): Promise<void> {
  if (ready()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onEvent = () => {
      if (!ready()) return;
      clearTimeout(timer);
      emitter.off(event, onEvent);
      resolve();
    };
    const timer = setTimeout(() => {
      emitter.off(event, onEvent);
      reject(new Error(why()));
    }, timeoutMs);
    emitter.on(event, onEvent);
  });
}
