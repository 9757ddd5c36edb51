import { describe, expect, it } from '@jest/globals';
import type { Alarm } from '@wv/contracts';
import { machinesNeedingAttention } from './needs-attention';

const alarm = (id: string, machineId: string, severity: Alarm['severity'], openedAt: string): Alarm =>
  ({ id, machineId, kind: 'low_tank', severity, status: 'open', openedAt }) as Alarm;

describe('machines needing attention', () => {
  it('groups alarms by machine, worst severity first, then the machine waiting longest', () => {
    const list = machinesNeedingAttention([
      alarm('1', 'ESP-A', 'minor', '2026-01-01T10:00:00Z'),
      alarm('2', 'ESP-B', 'major', '2026-01-01T09:00:00Z'),
      alarm('3', 'ESP-A', 'critical', '2026-01-01T11:00:00Z'),
      alarm('4', 'ESP-C', 'major', '2026-01-01T08:00:00Z'),
    ]);
    expect(list.map((m) => [m.espId, m.worst, m.since])).toEqual([
      ['ESP-A', 'critical', '2026-01-01T10:00:00Z'],
      ['ESP-C', 'major', '2026-01-01T08:00:00Z'],
      ['ESP-B', 'major', '2026-01-01T09:00:00Z'],
    ]);
    expect(list[0]!.alarms.map((a) => a.id)).toEqual(['3', '1']);
  });
});
