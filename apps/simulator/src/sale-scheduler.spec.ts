import { describe, expect, it } from '@jest/globals';
import { createRandom } from './prng.js';
import { SaleScheduler } from './sale-scheduler.js';

async function countFor(rate: number, ms: number): Promise<number> {
  let n = 0;
  const scheduler = new SaleScheduler({ rng: createRandom(1), rate: () => rate, onSale: () => n++ });
  scheduler.start();
  await new Promise((r) => setTimeout(r, ms));
  scheduler.stop();
  return n;
}

describe('the sale scheduler', () => {
  it('keeps up with rates above what millisecond timers could fire one by one', async () => {
    // 5 000/s for 0.4 s: about 2 000; bounds are wide for a busy machine.
    const n = await countFor(5_000, 400);
    expect(n).toBeGreaterThan(1_000);
    expect(n).toBeLessThan(3_000);
  });

  it('sells nothing at rate 0', async () => {
    expect(await countFor(0, 100)).toBe(0);
  });
});
