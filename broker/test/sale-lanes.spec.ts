import { describe, expect, it } from '@jest/globals';
import { SaleLanes } from '../src/sale-lanes.js';

interface Item {
  id: string;
  offline: boolean;
}

/** A persist whose calls stay open until the test settles them. */
function heldPersist() {
  const calls: { items: string[]; settle: () => void }[] = [];
  const persist = (batch: Item[]) =>
    new Promise<void>((resolve) => calls.push({ items: batch.map((i) => i.id), settle: resolve }));
  return { calls, persist };
}

describe('SaleLanes', () => {
  const make = (persist: (batch: Item[]) => Promise<void>) =>
    new SaleLanes<Item>({ persist, maxBatch: 2, lingerMs: 1, maxInFlight: 4, timeoutMs: 0 }, (i) => i.offline);

  it('persists a live sale while a backlog flush is still in flight, in a batch of its own', async () => {
    const { calls, persist } = heldPersist();
    const lanes = make(persist);
    const backlog = [lanes.add({ id: 'b1', offline: true }), lanes.add({ id: 'b2', offline: true })];
    const live = lanes.add({ id: 'l1', offline: false });
    await new Promise((r) => setTimeout(r, 20));
    expect(calls.map((c) => c.items)).toEqual([['b1', 'b2'], ['l1']]);
    calls[1]!.settle();
    await live;
    expect(lanes.inFlightCount).toBe(2);
    calls[0]!.settle();
    await Promise.all(backlog);
    expect(lanes.inFlightCount).toBe(0);
  });

  it("tells the waits of live sales only: a backlog's waits are the pacer's doing", async () => {
    const waited: number[] = [];
    const lanes = new SaleLanes<Item>(
      {
        persist: async () => {},
        maxBatch: 2,
        lingerMs: 1,
        maxInFlight: 4,
        timeoutMs: 0,
        onItemPersisted: (ms) => waited.push(ms),
      },
      (i) => i.offline,
    );
    await Promise.all([
      lanes.add({ id: 'b1', offline: true }),
      lanes.add({ id: 'b2', offline: true }),
      lanes.add({ id: 'l1', offline: false }),
    ]);
    expect(waited).toHaveLength(1);
  });

  it('gives backlogs one flush at a time while live sales use every flight', async () => {
    const { calls, persist } = heldPersist();
    const lanes = make(persist);
    for (let i = 0; i < 6; i++) void lanes.add({ id: `b${i}`, offline: true });
    for (let i = 0; i < 6; i++) void lanes.add({ id: `l${i}`, offline: false });
    await new Promise((r) => setTimeout(r, 20));
    const flights = calls.map((c) => c.items);
    expect(flights.filter((f) => f[0]!.startsWith('b'))).toEqual([['b0', 'b1']]);
    expect(flights.filter((f) => f[0]!.startsWith('l'))).toEqual([
      ['l0', 'l1'],
      ['l2', 'l3'],
      ['l4', 'l5'],
    ]);
    expect(lanes.pendingCount).toBe(4);
    // Settling lets what waits go out; settling again is harmless, so repeat until both lanes are empty.
    const drained = lanes.drain();
    for (let round = 0; round < 10; round++) {
      for (const c of calls) c.settle();
      await new Promise((r) => setTimeout(r, 5));
    }
    await drained;
    expect(calls.flatMap((c) => c.items).sort()).toEqual(
      ['b0', 'b1', 'b2', 'b3', 'b4', 'b5', 'l0', 'l1', 'l2', 'l3', 'l4', 'l5'].sort(),
    );
  });

  it('fails what waits in both lanes on abort', async () => {
    const { persist } = heldPersist();
    const lanes = make(persist);
    const a = lanes.add({ id: 'b', offline: true });
    const b = lanes.add({ id: 'l', offline: false });
    lanes.abort(new Error('closing'));
    await expect(a).rejects.toThrow('closing');
    await expect(b).rejects.toThrow('closing');
  });
});
