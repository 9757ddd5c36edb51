import { describe, expect, it } from '@jest/globals';
import { RepeatingRound, ThrottledWarning } from './repeating-round.js';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('RepeatingRound', () => {
  it('startNow() runs the first round at once, then one every period after each ends', async () => {
    const started: number[] = [];
    const round = new RepeatingRound(
      60_000,
      async () => {
        started.push(Date.now());
      },
      () => undefined,
    );
    round.startNow();
    await tick();
    expect(started).toHaveLength(1);
    await round.stop();
    round.startNow(); // once stopped, nothing runs
    await tick();
    expect(started).toHaveLength(1);
  });

  it('runs one round at a time, goes on after a failed round, and stop() waits for the round in progress', async () => {
    let active = 0;
    let most = 0;
    let rounds = 0;
    let release: (() => void) | undefined;
    const errors: string[] = [];
    const round = new RepeatingRound(
      1,
      async () => {
        active++;
        most = Math.max(most, active);
        rounds++;
        if (rounds === 1) throw new Error('first round fails');
        if (rounds === 3) await new Promise<void>((r) => (release = r));
        active--;
      },
      (error) => {
        active--;
        errors.push(error.message);
      },
    );
    round.start();
    while (!release) await tick();
    let stopped = false;
    const stopping = round.stop().then(() => (stopped = true));
    expect(round.stopped).toBe(true);
    await tick();
    expect(stopped).toBe(false);
    release();
    await stopping;
    await tick();
    expect({ rounds, most, errors }).toEqual({ rounds: 3, most: 1, errors: ['first round fails'] });
  });

  it('retries a write until it succeeds, and gives up at the deadline or once stopped', async () => {
    const errors: string[] = [];
    const round = new RepeatingRound(
      1_000,
      async () => undefined,
      (e) => errors.push(e.message),
    );
    let calls = 0;
    const flaky = async () => {
      if (++calls < 3) throw new Error(`down ${calls}`);
      return 'recorded';
    };
    expect(await round.retry(Date.now() + 5_000, flaky)).toBe('recorded');
    expect(errors).toEqual(['down 1', 'down 2']);
    await expect(round.retry(Date.now() + 50, () => Promise.reject(new Error('still down')))).rejects.toThrow(
      'still down',
    );
    await round.stop();
    await expect(round.retry(Date.now() + 5_000, () => Promise.reject(new Error('stopping')))).rejects.toThrow(
      'stopping',
    );
  });
});

describe('ThrottledWarning', () => {
  it('says a warning at most once per period', () => {
    const said: string[] = [];
    const warning = new ThrottledWarning((m) => said.push(m), 60_000);
    warning.log('a');
    warning.log('b');
    expect(said).toEqual(['a']);
  });
});
