import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import ExcelJS from 'exceljs';
import type { DataSource } from 'typeorm';
// The outside world's stand-ins (a real SMTP server and an Africa's Talking–compatible HTTP API) live with
// the demo, which serves them to people too; tests may use them.
import { SmsSink } from '../../../demo/src/outside/sms-sink.js';
import { SmtpCatcher, type CaughtMail } from '../../../demo/src/outside/smtp-catcher.js';
import { ALARM_NOTIFIER, type AlarmNotice, type AlarmNotifier } from '../../src/alarm-notice/alarm-notifier.port.js';
import { DailyReportService } from '../../src/notification/daily-report.service.js';
import { NotificationDispatcher } from '../../src/notification/notification.dispatcher.js';
import { createAttendant, createManager, personFields, provisionDevice } from '../factories/fleet.factory.js';
import { insertSales } from '../factories/sales.factory.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../support/test-app.js';

const SMS = { username: 'wv-test', apiKey: 'test-api-key-123' };

async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function notice(over: Partial<AlarmNotice> & Pick<AlarmNotice, 'espId'>): AlarmNotice {
  return {
    event: 'opened',
    alarmId: randomUUID(),
    kind: 'offline',
    severity: 'critical',
    openedAt: new Date(),
    details: {},
    location: 'Kariakoo',
    ownerId: null,
    attendantId: null,
    ...over,
  };
}

/** What the alarm engine does: queue the messages inside the transaction that opens the alarm. */
async function enqueue(ds: DataSource, notifier: AlarmNotifier, notices: AlarmNotice[]): Promise<void> {
  await ds.transaction((m) => notifier.enqueue(m, notices));
}

const rowsOf = (ds: DataSource, alarmId: string) =>
  ds.query(
    `SELECT channel, address, status, attempts, last_error FROM notification_outbox WHERE alarm_id = $1 ORDER BY channel, address`,
    [alarmId],
  ) as Promise<{ channel: string; address: string; status: string; attempts: number; last_error: string | null }[]>;

const alarmCount = (m: CaughtMail) => Number(m.headers['x-alarm-count'] ?? 0);
const smsCount = (text: string) => (/^(\d+) alarms \(/.exec(text) ? Number(/^(\d+)/.exec(text)![1]) : 1);

describe('notifications of alarms', () => {
  const catcher = new SmtpCatcher();
  const sink = new SmsSink(SMS);
  let t: TestApp;
  let notifier: AlarmNotifier;
  let admin: string;

  beforeAll(async () => {
    await catcher.start();
    await sink.start();
    t = await createTestApp({
      SMTP_URL: catcher.url,
      MAIL_FROM: 'alarms@wv.test',
      SMS_URL: sink.url,
      SMS_USERNAME: SMS.username,
      SMS_API_KEY: SMS.apiKey,
      DAILY_REPORT_TIME: '00:00',
      NOTIFICATION_RETRY_DELAY_MS: '1000',
      NOTIFICATION_DIGEST_SECONDS: '3',
      NOTIFICATION_LEASE_SECONDS: '30',
    });
    notifier = t.running.app.get<AlarmNotifier>(ALARM_NOTIFIER, { strict: false });
    admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  });
  afterAll(async () => {
    await t?.close();
    await catcher.stop();
    await sink.stop();
  });

  const emailsTo = (address: string) =>
    catcher.messages().filter((m) => m.to.includes(address) && !m.subject.startsWith('Daily report'));
  const smsTo = (number: string) => sink.messages().filter((s) => s.to === number);

  describe('preferences', () => {
    it('start at email and SMS on, least severity major, no quiet hours', async () => {
      const res = await t.http.get('/user/notification-preferences', { token: admin });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ email: true, sms: true, minSeverity: 'major', quietHours: null });
    });

    it('belong to every role, each user reading and changing only their own', async () => {
      const manager = await createManager(t.http, admin);
      const attendant = await createAttendant(t.http, manager.token, manager.devices[0]!.espId);
      const mine = await t.http.put('/user/notification-preferences', { email: false }, { token: attendant.token });
      expect(mine.status).toBe(200);
      expect(mine.body.email).toBe(false);
      // Neither the attendant's manager nor an admin sees or changes it: the path names no user.
      expect((await t.http.get('/user/notification-preferences', { token: manager.token })).body.email).toBe(true);
      expect((await t.http.get('/user/notification-preferences', { token: admin })).body.email).toBe(true);
      const [row] = await t.dataSource.query(`SELECT email FROM notification_preferences WHERE user_id = $1`, [
        attendant.userId,
      ]);
      expect(row).toEqual({ email: false });
    });

    it('change by any subset and answer the whole, for the caller only', async () => {
      const manager = await createManager(t.http, admin);
      const other = await createManager(t.http, admin);
      const put = await t.http.put(
        '/user/notification-preferences',
        { sms: false, quietHours: { from: '22:00', to: '06:00' } },
        { token: manager.token },
      );
      expect(put.status).toBe(200);
      expect(put.body).toEqual({
        email: true,
        sms: false,
        minSeverity: 'major',
        quietHours: { from: '22:00', to: '06:00' },
      });
      const again = await t.http.put(
        '/user/notification-preferences',
        { minSeverity: 'minor', quietHours: null },
        { token: manager.token },
      );
      expect(again.body).toEqual({ email: true, sms: false, minSeverity: 'minor', quietHours: null });
      expect((await t.http.get('/user/notification-preferences', { token: manager.token })).body).toEqual(again.body);
      expect((await t.http.get('/user/notification-preferences', { token: other.token })).body).toEqual({
        email: true,
        sms: true,
        minSeverity: 'major',
        quietHours: null,
      });
    });

    it('refuse bad input with 400 naming the field, and anonymous callers with 401', async () => {
      const manager = await createManager(t.http, admin);
      for (const body of [
        { minSeverity: 'urgent' },
        { email: 'yes' },
        { quietHours: { from: '25:00', to: '06:00' } },
        { quietHours: { from: '06:00', to: '06:00' } },
        { quietHours: { from: '22:00' } },
        { userId: manager.userId },
      ]) {
        const res = await t.http.put('/user/notification-preferences', body, { token: manager.token });
        expect({ body, status: res.status, code: res.body.code }).toEqual({
          body,
          status: 400,
          code: 'ValidationFailed',
        });
      }
      expect((await t.http.get('/user/notification-preferences')).status).toBe(401);
      expect((await t.http.get('/user/notification-preferences', { token: 'not-a-token' })).status).toBe(401);
      expect((await t.http.put('/user/notification-preferences', { sms: false })).status).toBe(401);
      // Nothing of the bad calls stuck.
      expect((await t.http.get('/user/notification-preferences', { token: manager.token })).body.minSeverity).toBe(
        'major',
      );
    });
  });

  it('sends an opening once to the owner manager (email and SMS) and the attendant (SMS: no email address)', async () => {
    const manager = await createManager(t.http, admin);
    const espId = manager.devices[0]!.espId;
    const attendant = await createAttendant(t.http, manager.token, espId);
    const n = notice({
      espId,
      ownerId: manager.userId,
      attendantId: attendant.userId,
      kind: 'water_quality',
      details: { tdsPpm: 820 },
    });
    await enqueue(t.dataSource, notifier, [n]);
    // The same event again (a retried transaction, a second process): nothing more is queued.
    await enqueue(t.dataSource, notifier, [n]);

    const deliveries = await waitFor('three deliveries sent', async () => {
      const d = await notifier.deliveries(n.alarmId);
      return d.length === 3 && d.every((x) => x.status === 'sent') && d;
    });
    expect(deliveries.map((d) => [d.channel, d.to, d.attempts]).sort()).toEqual(
      [
        ['email', manager.email, 1],
        ['sms', manager.phoneNumber, 1],
        ['sms', attendant.phoneNumber, 1],
      ].sort(),
    );
    const [mail] = emailsTo(manager.email);
    expect(emailsTo(manager.email)).toHaveLength(1);
    expect(mail!.subject).toBe(`[CRITICAL] water quality (TDS) at ${espId} (Kariakoo)`);
    expect(mail!.from).toBe('alarms@wv.test');
    expect(mail!.messageId).toMatch(/^<alarm-[0-9a-f-]+@wv\.test>$/);
    expect(mail!.text).toContain('"tdsPpm":820');
    expect(smsTo(manager.phoneNumber)).toHaveLength(1);
    expect(smsTo(attendant.phoneNumber)).toEqual([
      expect.objectContaining({
        username: SMS.username,
        message: expect.stringMatching(/^CRITICAL: water quality \(TDS\) at /),
      }),
    ]);
  });

  it('queues nothing when the opening rolls back', async () => {
    const manager = await createManager(t.http, admin);
    const n = notice({ espId: manager.devices[0]!.espId, ownerId: manager.userId });
    await expect(
      t.dataSource.transaction(async (m) => {
        await notifier.enqueue(m, [n]);
        throw new Error('the opening failed');
      }),
    ).rejects.toThrow('the opening failed');
    expect(await notifier.deliveries(n.alarmId)).toEqual([]);
    expect(await t.dataSource.query(`SELECT 1 FROM alarm_notices WHERE alarm_id = $1`, [n.alarmId])).toEqual([]);
  });

  it('follows each recipient’s channels and least severity', async () => {
    const manager = await createManager(t.http, admin);
    const espId = manager.devices[0]!.espId;
    await t.http.put(
      '/user/notification-preferences',
      { sms: false, minSeverity: 'critical' },
      { token: manager.token },
    );
    const major = notice({ espId, ownerId: manager.userId, kind: 'low_tank', severity: 'major' });
    const minor = notice({ espId, ownerId: manager.userId, kind: 'coin_box_full', severity: 'minor' });
    const critical = notice({ espId, ownerId: manager.userId, kind: 'offline', severity: 'critical' });
    await enqueue(t.dataSource, notifier, [major, minor, critical]);
    await waitFor(
      'the critical email',
      async () => (await rowsOf(t.dataSource, critical.alarmId))[0]?.status === 'sent',
    );
    expect(await rowsOf(t.dataSource, critical.alarmId)).toEqual([
      expect.objectContaining({ channel: 'email', address: manager.email, status: 'sent' }),
    ]);
    expect(await rowsOf(t.dataSource, major.alarmId)).toEqual([]);
    expect(await rowsOf(t.dataSource, minor.alarmId)).toEqual([]);
    expect(smsTo(manager.phoneNumber)).toEqual([]);
  });

  it('defers what is not critical during quiet hours to their end, and sends critical ones at once', async () => {
    const manager = await createManager(t.http, admin);
    const espId = manager.devices[0]!.espId;
    // Quiet hours from a minute ago to the next whole minute at least 30 s away (APP_TIMEZONE, UTC+3 here).
    const local = (d: Date) => new Date(d.getTime() + 3 * 3600_000).toISOString().slice(11, 16);
    const now = Date.now();
    let end = Math.ceil(now / 60_000) * 60_000;
    if (end - now < 30_000) end += 60_000;
    const quietHours = { from: local(new Date(now - 60_000)), to: local(new Date(end)) };
    const put = await t.http.put('/user/notification-preferences', { quietHours }, { token: manager.token });
    expect(put.status).toBe(200);
    const major = notice({ espId, ownerId: manager.userId, kind: 'device_error', severity: 'major' });
    const critical = notice({ espId, ownerId: manager.userId, kind: 'offline', severity: 'critical' });
    await enqueue(t.dataSource, notifier, [major, critical]);

    const deferred = await notifier.deliveries(major.alarmId);
    expect(deferred.map((d) => d.status)).toEqual(['deferred', 'deferred']);
    const [due] = await t.dataSource.query(
      `SELECT min(next_attempt_at) AS at FROM notification_outbox WHERE alarm_id = $1`,
      [major.alarmId],
    );
    expect(new Date(due.at).getTime()).toBe(end);
    await waitFor('the critical alarm sent in quiet hours', async () =>
      (await notifier.deliveries(critical.alarmId)).every((d) => d.status === 'sent'),
    );
    expect((await notifier.deliveries(major.alarmId)).map((d) => d.status)).toEqual(['deferred', 'deferred']);

    const sent = await waitFor(
      'the deferred alarm sent at the end of the quiet hours',
      async () => {
        const d = await notifier.deliveries(major.alarmId);
        return d.every((x) => x.status === 'sent') && d;
      },
      120_000,
    );
    expect(sent).toHaveLength(2);
    const [sentAt] = await t.dataSource.query(
      `SELECT min(sent_at) AS at FROM notification_outbox WHERE alarm_id = $1`,
      [major.alarmId],
    );
    expect(new Date(sentAt.at).getTime()).toBeGreaterThanOrEqual(end);
  }, 180_000);

  it('escalates to every admin, not to the manager or the attendant', async () => {
    const manager = await createManager(t.http, admin);
    const espId = manager.devices[0]!.espId;
    // A second admin, with a phone: email and SMS.
    const admin2 = { ...personFields('admin'), role: 'admin' };
    const device = await provisionDevice(t.http, admin);
    const reg = await t.http.post(
      '/admin/register-user',
      { ...admin2, esp32Id: device.espId, machine_location: 'HQ' },
      { token: admin },
    );
    expect(reg.status).toBe(201);
    const opened = notice({ espId, ownerId: manager.userId, severity: 'major', kind: 'no_sales' });
    await enqueue(t.dataSource, notifier, [opened]);
    await enqueue(t.dataSource, notifier, [{ ...opened, event: 'escalated' }]);
    const deliveries = await waitFor('the escalation sent', async () => {
      const d = await notifier.deliveries(opened.alarmId);
      return d.length >= 4 && d.every((x) => x.status === 'sent') && d;
    });
    const escalated = await t.dataSource.query(
      `SELECT channel, address FROM notification_outbox WHERE alarm_id = $1 AND event = 'escalated' ORDER BY channel, address`,
      [opened.alarmId],
    );
    const admins: { email: string; phone_number: string }[] = await t.dataSource.query(
      `SELECT email, phone_number FROM users WHERE role = 'admin' AND deleted_at IS NULL`,
    );
    expect(admins.length).toBeGreaterThanOrEqual(1);
    // The first admin's phone is a placeholder (+255000000000): email only.
    const expected = admins.flatMap((a) => [
      { channel: 'email', address: a.email },
      ...(/^\+\d{1,3}0+$/.test(a.phone_number) ? [] : [{ channel: 'sms', address: a.phone_number }]),
    ]);
    expect(escalated).toEqual(expect.arrayContaining(expected));
    expect(escalated).toHaveLength(expected.length);
    expect(escalated.map((r: { address: string }) => r.address)).not.toContain(manager.email);
    expect(deliveries.length).toBe(2 + expected.length);
    const mail = await waitFor('the escalation email', () =>
      catcher.messages().find((m) => m.to.includes(TEST_ADMIN.email) && m.text.includes(espId)),
    );
    expect(mail.subject).toMatch(/^ESCALATED \[MAJOR\] no sales at /);
  });

  it('sends a burst of 5,000 openings to one manager as a bounded number of digests, losing none', async () => {
    const manager = await createManager(t.http, admin);
    const notices = Array.from({ length: 5000 }, (_, i) =>
      notice({ espId: `FLEET-${i}`, ownerId: manager.userId, severity: i % 3 ? 'critical' : 'major' }),
    );
    const started = Date.now();
    for (let i = 0; i < notices.length; i += 500) await enqueue(t.dataSource, notifier, notices.slice(i, i + 500));
    const burstMs = Date.now() - started;
    await waitFor(
      'every message of the burst sent',
      async () => {
        const [r] = await t.dataSource.query(
          `SELECT count(*) FILTER (WHERE status = 'sent')::int AS sent, count(*)::int AS total
           FROM notification_outbox WHERE recipient_id = $1`,
          [manager.userId],
        );
        return r.total === 10_000 && r.sent === 10_000;
      },
      180_000,
    );
    const emails = emailsTo(manager.email);
    const sms = smsTo(manager.phoneNumber);
    process.stdout.write(`5,000 openings in ${burstMs} ms: ${emails.length} email(s), ${sms.length} SMS\n`);
    // A fleet-wide outage: a handful of messages per channel, not 5,000.
    // At most one message per digest window (3 s here) while the burst lasts, plus the first and the last.
    const bound = Math.ceil(burstMs / 3_000) + 2;
    expect(emails.length).toBeLessThanOrEqual(bound);
    expect(sms.length).toBeLessThanOrEqual(bound);
    expect(emails.reduce((a, m) => a + alarmCount(m), 0)).toBe(5000);
    expect(sms.reduce((a, s) => a + smsCount(s.message), 0)).toBe(5000);
    for (const s of sms) expect(s.message.length).toBeLessThanOrEqual(306);
    expect(new Set(emails.map((m) => m.messageId)).size).toBe(emails.length);
  }, 240_000);

  it('delays messages while the SMTP server and the SMS API are down, then sends each once', async () => {
    const manager = await createManager(t.http, admin);
    const espId = manager.devices[0]!.espId;
    await catcher.stop();
    await sink.stop();
    try {
      const n = notice({ espId, ownerId: manager.userId, kind: 'sales_gap', severity: 'major' });
      await enqueue(t.dataSource, notifier, [n]);
      const failing = await waitFor('two failed attempts on both channels', async () => {
        const rows = await rowsOf(t.dataSource, n.alarmId);
        return rows.length === 2 && rows.every((r) => r.attempts >= 2 && r.status === 'pending') && rows;
      });
      expect(failing.find((r) => r.channel === 'email')!.last_error).toMatch(/SMTP/);
      expect(failing.find((r) => r.channel === 'sms')!.last_error).toMatch(/SMS API unreachable/);
      expect((await notifier.deliveries(n.alarmId)).map((d) => d.status)).toEqual(['pending', 'pending']);
      await catcher.start();
      await sink.start();
      await waitFor('both sent after the servers came back', async () =>
        (await notifier.deliveries(n.alarmId)).every((d) => d.status === 'sent'),
      );
      // Give a duplicate every chance to show up before counting.
      await new Promise((r) => setTimeout(r, 3_000));
      expect(emailsTo(manager.email).filter((m) => m.text.includes(espId))).toHaveLength(1);
      expect(smsTo(manager.phoneNumber)).toHaveLength(1);
    } finally {
      await catcher.start();
      await sink.start();
    }
  }, 120_000);

  it('gives up a message the server refuses for good (550), and still sends the other channel', async () => {
    const manager = await createManager(t.http, admin);
    catcher.refuse = (address) => address === manager.email;
    try {
      const n = notice({
        espId: manager.devices[0]!.espId,
        ownerId: manager.userId,
        kind: 'device_error',
        severity: 'major',
      });
      await enqueue(t.dataSource, notifier, [n]);
      const rows = await waitFor('both settled', async () => {
        const r = await rowsOf(t.dataSource, n.alarmId);
        return r.length === 2 && r.every((x) => x.status !== 'pending') && r;
      });
      expect(rows.find((r) => r.channel === 'email')).toMatchObject({ status: 'failed', attempts: 1 });
      expect(rows.find((r) => r.channel === 'email')!.last_error).toMatch(/550|unavailable/);
      expect(rows.find((r) => r.channel === 'sms')).toMatchObject({ status: 'sent', attempts: 1 });
      expect(emailsTo(manager.email)).toEqual([]);
    } finally {
      catcher.refuse = undefined;
    }
  });

  describe('an SMS whose sender died after claiming it (docs/alarms.md, "What is guaranteed when a process dies")', () => {
    /** Queues an opening whose SMS is left as a sender that died leaves it: claimed, its lease run out. */
    const claimedByDeadSender = async (handed: boolean) => {
      const manager = await createManager(t.http, admin);
      const n = notice({ espId: manager.devices[0]!.espId, ownerId: manager.userId, kind: 'offline' });
      await t.dataSource.transaction(async (m) => {
        await notifier.enqueue(m, [n]);
        await m.query(`DELETE FROM notification_outbox WHERE alarm_id = $1 AND channel = 'email'`, [n.alarmId]);
        await m.query(
          `UPDATE notification_outbox SET batch_id = gen_random_uuid(), message_id = '<alarm-dead@wv.test>', attempts = 1,
                  lease_until = now() - interval '1 second', handed_at = CASE WHEN $2 THEN now() - interval '2 seconds' END
           WHERE alarm_id = $1`,
          [n.alarmId, handed],
        );
      });
      return { manager, n };
    };

    it('sends it as a new message when it was never handed to the SMS API', async () => {
      const { manager, n } = await claimedByDeadSender(false);
      await waitFor('the SMS sent', async () => (await rowsOf(t.dataSource, n.alarmId))[0]?.status === 'sent');
      expect(await rowsOf(t.dataSource, n.alarmId)).toMatchObject([{ channel: 'sms', status: 'sent', attempts: 2 }]);
      await new Promise((r) => setTimeout(r, 3_000));
      expect(smsTo(manager.phoneNumber)).toHaveLength(1);
      expect(smsTo(manager.phoneNumber)[0]!.message).toContain(n.espId);
    });

    it('gives it up, never sending it, when it was handed over (the API may have taken it)', async () => {
      const { manager, n } = await claimedByDeadSender(true);
      await waitFor('the SMS given up', async () => (await rowsOf(t.dataSource, n.alarmId))[0]?.status === 'failed');
      const [row] = await rowsOf(t.dataSource, n.alarmId);
      expect(row).toMatchObject({ channel: 'sms', status: 'failed', attempts: 1 });
      expect(row!.last_error).toMatch(/^outcome unknown: the sender stopped after handing the message to the SMS API/);
      await new Promise((r) => setTimeout(r, 3_000));
      expect(smsTo(manager.phoneNumber)).toEqual([]);
    });

    it('records the hand-over of an SMS before its request reaches the API', async () => {
      const manager = await createManager(t.http, admin);
      const n = notice({ espId: manager.devices[0]!.espId, ownerId: manager.userId, kind: 'device_error' });
      let handedWhenTaken: (Date | null)[] | undefined;
      // What the row said at the moment the API took the SMS.
      sink.onMessage = async (taken) => {
        if (!taken.some((m) => m.to === manager.phoneNumber)) return;
        const rows: { handed_at: Date | null }[] = await t.dataSource.query(
          `SELECT handed_at FROM notification_outbox WHERE alarm_id = $1 AND channel = 'sms'`,
          [n.alarmId],
        );
        handedWhenTaken = rows.map((r) => r.handed_at);
      };
      try {
        await enqueue(t.dataSource, notifier, [n]);
        await waitFor('the SMS taken', () => handedWhenTaken);
        expect(handedWhenTaken).toEqual([expect.any(Date)]);
      } finally {
        sink.onMessage = undefined;
      }
      await waitFor('the SMS recorded', async () =>
        (await rowsOf(t.dataSource, n.alarmId)).every((r) => r.status === 'sent'),
      );
      // The hand-over is the dispatcher's own: an alarm's deliveries (GET /alarms/{id}) show no more than before.
      for (const delivery of await notifier.deliveries(n.alarmId)) {
        expect(Object.keys(delivery).sort()).toEqual(['at', 'attempts', 'channel', 'status', 'to']);
      }
    });
  });

  it('gives up an SMS whose answer never came (the API may have taken it), and never sends it again', async () => {
    const manager = await createManager(t.http, admin);
    // The API takes the message and answers after the sender's 15 s timeout.
    sink.onMessage = async (taken) => {
      if (taken.some((m) => m.to === manager.phoneNumber)) await new Promise((r) => setTimeout(r, 17_000));
    };
    try {
      const n = notice({
        espId: manager.devices[0]!.espId,
        ownerId: manager.userId,
        kind: 'low_tank',
        severity: 'major',
      });
      await enqueue(t.dataSource, notifier, [n]);
      const rows = await waitFor('the SMS settled', async () => {
        const r = await rowsOf(t.dataSource, n.alarmId);
        const sms = r.find((x) => x.channel === 'sms');
        return sms && sms.status !== 'pending' && r;
      });
      expect(rows.find((r) => r.channel === 'sms')).toMatchObject({ status: 'failed', attempts: 1 });
      expect(rows.find((r) => r.channel === 'sms')!.last_error).toMatch(/^outcome unknown: SMS API did not answer/);
      await new Promise((r) => setTimeout(r, 4_000));
      expect(smsTo(manager.phoneNumber)).toHaveLength(1);
    } finally {
      sink.onMessage = undefined;
    }
  }, 90_000);

  it('emails each manager yesterday’s report once, as daily_report_YYYY-MM-DD.xlsx', async () => {
    const manager = await createManager(t.http, admin, 2);
    const [a, b] = manager.devices.map((d) => d.espId) as [string, string];
    const tz = t.config.timezone;
    const [{ day, noon }] = await t.dataSource.query(
      `SELECT to_char((now() AT TIME ZONE $1)::date - 1, 'YYYY-MM-DD') AS day,
              (((now() AT TIME ZONE $1)::date - 1) + time '12:00') AT TIME ZONE $1 AS noon`,
      [tz],
    );
    const soldAt = new Date(noon);
    await insertSales(
      t.dataSource,
      [
        { espId: a, kind: 'coin', price: 500, volume: 10, waterType: 'pure', soldAt },
        { espId: a, kind: 'coin', price: 250.5, volume: 5.5, waterType: 'cold', soldAt },
        { espId: a, kind: 'card', price: 1000, volume: 20, waterType: 'pure', soldAt },
        // Today's sale is not yesterday's.
        { espId: b, kind: 'coin', price: 999, volume: 1, waterType: 'pure', soldAt: new Date() },
      ],
      tz,
    );
    await enqueue(t.dataSource, notifier, [
      notice({ espId: b, ownerId: null, openedAt: soldAt, severity: 'minor' }),
      notice({ espId: b, ownerId: null, openedAt: soldAt, severity: 'minor', kind: 'low_tank' }),
    ]);
    const reports = t.running.app.get(DailyReportService, { strict: false });
    await reports.schedule();
    const mail = await waitFor('the daily report', async () => {
      const found = catcher.messages().find((m) => m.to.includes(manager.email) && m.subject === `Daily report ${day}`);
      return found;
    });
    expect(mail.attachments.map((x) => x.filename)).toEqual([`daily_report_${day}.xlsx`]);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(mail.attachments[0]!.content as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0]!;
    const values = sheet
      .getSheetValues()
      .filter(Boolean)
      .map((r) => (r as unknown[]).slice(1));
    expect(values).toEqual([
      ['Machine', 'Location', 'Coin revenue', 'Coin litres', 'Card revenue', 'Card litres', 'Alarms opened'],
      ...[
        [a, expect.any(String), 750.5, 15.5, 1000, 20, 0],
        [b, expect.any(String), 0, 0, 0, 0, 2],
      ].sort((x, y) => String(x[0]).localeCompare(String(y[0]))),
      ['Total', '', 750.5, 15.5, 1000, 20, 2],
    ]);
    // Once per manager and day, however often the schedule runs.
    expect(await reports.schedule()).toBe(0);
    await new Promise((r) => setTimeout(r, 2_000));
    expect(
      catcher.messages().filter((m) => m.to.includes(manager.email) && m.subject.startsWith('Daily report')),
    ).toHaveLength(1);
    const [row] = await t.dataSource.query(`SELECT status, attempts FROM daily_reports WHERE manager_id = $1`, [
      manager.userId,
    ]);
    expect(row).toEqual({ status: 'sent', attempts: 1 });
  });

  // Last: it deletes what the tests above settled.
  it('purges settled messages and alarm events past the retention, and keeps what is still due', async () => {
    const manager = await createManager(t.http, admin);
    // Quiet hours from an hour ago to two hours on (APP_TIMEZONE, UTC+3): the message waits, deferred.
    const local = (ms: number) => new Date(Date.now() + ms + 3 * 3600_000).toISOString().slice(11, 16);
    const quiet = await t.http.put(
      '/user/notification-preferences',
      { quietHours: { from: local(-3600_000), to: local(2 * 3600_000) } },
      { token: manager.token },
    );
    expect(quiet.status).toBe(200);
    const waiting = notice({ espId: manager.devices[0]!.espId, ownerId: manager.userId, severity: 'major' });
    await enqueue(t.dataSource, notifier, [waiting]);
    const dispatcher = t.running.app.get(NotificationDispatcher, { strict: false });
    const count = async () =>
      (
        await t.dataSource.query(
          `SELECT (SELECT count(*) FROM notification_outbox WHERE status IN ('sent', 'failed'))::int AS settled,
                  (SELECT count(*) FROM notification_outbox WHERE status IN ('pending', 'deferred'))::int AS due,
                  (SELECT count(*) FROM alarm_notices)::int AS notices`,
        )
      )[0] as { settled: number; due: number; notices: number };
    const before = await count();
    expect(before.settled).toBeGreaterThan(10_000);
    // Nothing is old enough yet.
    expect(await dispatcher.purge()).toBe(0);
    // 91 days on, every settled row goes; the deferred message and its alarm event stay.
    await dispatcher.purge(new Date(Date.now() + 91 * 24 * 3600 * 1000));
    const after = await count();
    expect(after.settled).toBe(0);
    expect(after.due).toBe(before.due);
    expect(await rowsOf(t.dataSource, waiting.alarmId)).toHaveLength(2);
    expect(after.notices).toBeGreaterThanOrEqual(1);
    expect(after.notices).toBeLessThan(before.notices);
  });
});
