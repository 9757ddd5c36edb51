import { describe, expect, it } from '@jest/globals';
import { ADMIN_ROOM, machineRoom, userRoom } from '@wv/contracts';
import { WATCH_NODE_EXPIRY_MS, WatchedRooms } from './watched-rooms.js';

function trustedRegistry() {
  let now = 1_000_000;
  const registry = new WatchedRooms(() => now);
  registry.distrustFor(0);
  return { registry, advance: (ms: number) => (now += ms) };
}

const A = machineRoom('ESP-A');
const B = machineRoom('ESP-B');

describe('WatchedRooms', () => {
  it('counts every room as watched until it is trusted', () => {
    let now = 0;
    const registry = new WatchedRooms(() => now);
    expect(registry.watches([A])).toBe(true);
    expect(registry.watchesMachine(A)).toBe(true);
    registry.distrustFor(1_000);
    now = 999;
    expect(registry.watchesMachine(A)).toBe(true);
    now = 1_000;
    expect(registry.watchesMachine(A)).toBe(false);
    expect(registry.watches([A, ADMIN_ROOM])).toBe(false);
  });

  it('follows joins and leaves, and a room two processes watch until both left', () => {
    const { registry } = trustedRegistry();
    registry.apply({ node: 'n1', op: 'add', rooms: [A] });
    registry.apply({ node: 'n2', op: 'add', rooms: [A, B] });
    expect(registry.watchesMachine(A)).toBe(true);
    registry.apply({ node: 'n1', op: 'del', rooms: [A] });
    expect(registry.watchesMachine(A)).toBe(true);
    registry.apply({ node: 'n2', op: 'del', rooms: [A] });
    expect(registry.watchesMachine(A)).toBe(false);
    expect(registry.watchesMachine(B)).toBe(true);
    // A leave that was never a join, or a join repeated, does not unbalance the count.
    registry.apply({ node: 'n1', op: 'del', rooms: [B] });
    registry.apply({ node: 'n2', op: 'add', rooms: [B] });
    registry.apply({ node: 'n2', op: 'del', rooms: [B] });
    expect(registry.watchesMachine(B)).toBe(false);
  });

  it("replaces a process's rooms with its whole list", () => {
    const { registry } = trustedRegistry();
    registry.apply({ node: 'n1', op: 'add', rooms: [A] });
    registry.apply({ node: 'n1', op: 'all', rooms: [B] });
    expect(registry.watchesMachine(A)).toBe(false);
    expect(registry.watchesMachine(B)).toBe(true);
    registry.apply({ node: 'n1', op: 'all', rooms: [] });
    expect(registry.watchesMachine(B)).toBe(false);
  });

  it("sends every machine's events while an admin watches", () => {
    const { registry } = trustedRegistry();
    expect(registry.watchesMachine(A)).toBe(false);
    registry.apply({ node: 'n1', op: 'add', rooms: [ADMIN_ROOM] });
    expect(registry.watchesMachine(A)).toBe(true);
    expect(registry.watches([B, ADMIN_ROOM])).toBe(true);
  });

  it('always counts rooms it does not track (user rooms) as watched, and ignores them in lists', () => {
    const { registry } = trustedRegistry();
    expect(registry.watches([userRoom('u1')])).toBe(true);
    registry.apply({ node: 'n1', op: 'all', rooms: ['socket-id-room', userRoom('u1')] });
    expect(registry.watches([A])).toBe(false);
  });

  it('forgets the rooms of a process not heard from for the expiry', () => {
    const { registry, advance } = trustedRegistry();
    registry.apply({ node: 'n1', op: 'all', rooms: [A] });
    registry.apply({ node: 'n2', op: 'all', rooms: [B] });
    advance(WATCH_NODE_EXPIRY_MS - 1);
    registry.apply({ node: 'n2', op: 'all', rooms: [B] });
    registry.expire();
    expect(registry.watchesMachine(A)).toBe(true);
    advance(2);
    registry.expire();
    expect(registry.watchesMachine(A)).toBe(false);
    expect(registry.watchesMachine(B)).toBe(true);
  });
});
