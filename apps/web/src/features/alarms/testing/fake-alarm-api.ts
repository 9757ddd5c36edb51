import type { Alarm, AlarmDetail } from '@wv/contracts';
import type { Answer, RecordedRequest } from '../../../../test/api-server';

/**
 * A stand-in for the API's alarm endpoints in the web tests (docs/rest-api.md, "Machine health and alarms"): it keeps alarms,
 * filters and pages them as the server does, and applies the workflow actions with the server's refusals.
 */
export const MANAGER_ID = '0b9d8c7e-1111-4a43-9d8e-7c1f4b1a0001';
export const ATTENDANT_ID = '0b9d8c7e-2222-4a43-9d8e-7c1f4b1a0002';
export const OTHER_ATTENDANT_ID = '0b9d8c7e-3333-4a43-9d8e-7c1f4b1a0003';

/** A token whose payload names the user and role, as the session reads it (the fake server does not check it). */
export function tokenFor(sub: string, role: string): string {
  const part = (value: object) =>
    btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${part({ alg: 'none' })}.${part({ sub, role })}.signature`;
}

export function signIn(sub: string, role: string): void {
  localStorage.setItem('token', tokenFor(sub, role));
  localStorage.setItem('role', role);
  localStorage.setItem('tokenExpiry', String(Date.now() + 20 * 60_000));
}

let next = 0;
export function makeAlarm(overrides: Partial<Alarm> = {}): Alarm {
  next += 1;
  return {
    id: `5f0c0000-0000-4000-8000-${String(next).padStart(12, '0')}`,
    machineId: 'ESP-1',
    kind: 'low_tank',
    severity: 'major',
    status: 'open',
    openedAt: new Date(Date.UTC(2026, 10, 25, 8, next)).toISOString(),
    acknowledgedAt: null,
    acknowledgedBy: null,
    assigneeId: null,
    clearedAt: null,
    clearedBy: null,
    escalated: false,
    details: {},
    ...overrides,
  };
}

const refuse = (status: number, code: string, message: string): Answer => ({
  status,
  body: { statusCode: status, code, message },
});

export class FakeAlarmApi {
  readonly details = new Map<string, Pick<AlarmDetail, 'notes' | 'notifications'>>();

  constructor(
    public alarms: Alarm[],
    private readonly userId = MANAGER_ID,
  ) {}

  add(alarm: Alarm): void {
    this.alarms.push(alarm);
  }

  find(id: string): Alarm | undefined {
    return this.alarms.find((a) => a.id === id);
  }

  handle = (request: RecordedRequest): Answer => {
    const { method, path, query } = request;
    if (method === 'GET' && path === '/user/esp32-ids') {
      return {
        body: [
          { esp32Id: 'ESP-1', machine_location: 'Market' },
          { esp32Id: 'ESP-2', machine_location: 'School' },
        ],
      };
    }
    if (method === 'GET' && path === '/manager/attendants') {
      return {
        body: [
          {
            userId: ATTENDANT_ID,
            firstName: 'Asha',
            lastName: 'Mushi',
            phoneNumber: '+255700000001',
            esp32Id: 'ESP-1',
          },
          {
            userId: OTHER_ATTENDANT_ID,
            firstName: 'Juma',
            lastName: 'Said',
            phoneNumber: '+255700000002',
            esp32Id: 'ESP-2',
          },
        ],
      };
    }
    if (method === 'GET' && path === '/alarms') {
      const status = query.status ?? 'active';
      const rows = this.alarms
        .filter((a) => (status === 'all' ? true : status === 'active' ? a.status !== 'cleared' : a.status === status))
        .filter((a) => !query.machineId || a.machineId === query.machineId)
        .filter((a) => !query.kind || a.kind === query.kind)
        .sort((a, b) => Date.parse(b.openedAt) - Date.parse(a.openedAt));
      const page = Number(query.page ?? 1);
      const limit = Number(query.limit ?? 25);
      return { body: { data: rows.slice((page - 1) * limit, page * limit), total: rows.length } };
    }
    const match = /^\/alarms\/([^/]+)(?:\/(acknowledge|assign|notes|clear))?$/.exec(path);
    const alarm = match && this.find(match[1]);
    if (!match || !alarm) return refuse(404, 'ALARM_NOT_FOUND', 'Alarm not found');
    const extra = this.details.get(alarm.id) ?? { notes: [], notifications: [] };
    this.details.set(alarm.id, extra);
    const now = new Date().toISOString();
    switch (`${method} ${match[2] ?? ''}`) {
      case 'GET ':
        return { body: { ...alarm, ...extra } };
      case 'POST acknowledge':
        if (alarm.status !== 'open') return refuse(409, 'ALARM_NOT_OPEN', 'The alarm is not open');
        Object.assign(alarm, { status: 'acknowledged', acknowledgedAt: now, acknowledgedBy: this.userId });
        return { body: alarm };
      case 'POST assign': {
        const { userId } = request.body as { userId: string };
        if (![MANAGER_ID, ATTENDANT_ID].includes(userId)) {
          return refuse(422, 'ALARM_ASSIGNEE_OUT_OF_SCOPE', 'That person does not look after this machine');
        }
        alarm.assigneeId = userId;
        return { body: alarm };
      }
      case 'POST notes': {
        const { text } = request.body as { text: string };
        extra.notes.push({ id: `note-${extra.notes.length + 1}`, userId: this.userId, text, at: now });
        return { body: { ...alarm, ...extra } };
      }
      case 'POST clear':
        if (alarm.status === 'cleared') return refuse(409, 'ALARM_ALREADY_CLEARED', 'The alarm is already cleared');
        Object.assign(alarm, { status: 'cleared', clearedAt: now, clearedBy: this.userId });
        return { body: alarm };
      default:
        return refuse(404, 'NOT_FOUND', 'Not found');
    }
  };
}
