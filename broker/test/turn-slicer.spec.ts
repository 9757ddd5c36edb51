import { describe, expect, it } from '@jest/globals';
import { TurnSlicer } from '../src/turn-slicer.js';

/** Resolves after `turns` turns of the event loop, each with a poll phase (I/O) between them. */
const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

const fail = (error: unknown) => {
  throw error;
};

describe('TurnSlicer', () => {
  it('runs queued tasks in order, one slice per turn of the event loop', async () => {
    const slicer = new TurnSlicer(3, fail);
    const ran: number[] = [];
    for (let i = 0; i < 7; i++) slicer.push(() => ran.push(i));
    expect(slicer.waiting).toBe(7);
    // A slice scheduled from a setImmediate callback runs in the next turn, after that turn's I/O (Node's
    // event loop: the check phase follows the poll phase), so each turn here sees one more slice.
    await turns(1);
    expect(ran).toEqual([0, 1, 2]);
    await turns(1);
    expect(ran).toEqual([0, 1, 2, 3, 4, 5]);
    await turns(1);
    expect(ran).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(slicer.waiting).toBe(0);
  });

  it('keeps running after an empty spell, and tasks pushed while a slice runs', async () => {
    const slicer = new TurnSlicer(2, fail);
    const ran: number[] = [];
    slicer.push(() => ran.push(1));
    await turns(2);
    slicer.push(() => {
      ran.push(2);
      slicer.push(() => ran.push(3));
    });
    await turns(3);
    expect(ran).toEqual([1, 2, 3]);
  });

  it('still runs the rest of a slice when a task throws, and hands the error over', async () => {
    const errors: unknown[] = [];
    const slicer = new TurnSlicer(5, (error) => errors.push(error));
    const ran: number[] = [];
    slicer.push(() => ran.push(1));
    slicer.push(() => {
      throw new Error('boom');
    });
    slicer.push(() => ran.push(3));
    await turns(3);
    expect(ran).toEqual([1, 3]);
    expect(errors).toEqual([new Error('boom')]);
  });
});
