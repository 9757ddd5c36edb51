/**
 * Hands work over in batches, at most one per `everyMs` (docs/web-app.md, "Fleet dashboard"): a fleet of 1,000
 * machines sends hundreds of live events a second, and a screen drawn again for each one keeps the browser's main
 * thread busy (charts, the map) so that typing and scrolling lag. The first delivery after a quiet spell goes out
 * at once (on the next turn of the event loop); the rest wait for the next batch. Order is kept. `runBatch` runs
 * each batch, so that its caller can make the screens draw once for all of it.
 */
export function createDeliveryBatcher(
  everyMs: number,
  runBatch: (deliverAll: () => void) => void,
): (deliver: () => void) => void {
  let queued: (() => void)[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastFlush = -Infinity;

  const flush = () => {
    timer = undefined;
    lastFlush = Date.now();
    const deliveries = queued;
    queued = [];
    runBatch(() => {
      for (const deliver of deliveries) deliver();
    });
  };

  return (deliver) => {
    queued.push(deliver);
    if (timer === undefined) timer = setTimeout(flush, Math.max(0, lastFlush + everyMs - Date.now()));
  };
}
