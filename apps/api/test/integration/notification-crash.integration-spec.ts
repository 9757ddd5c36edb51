import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
// The outside world's stand-ins (a real SMTP server and an Africa's Talking–compatible HTTP API) live with
// the demo, which serves them to people too; tests may use them.
import { SmsSink } from '../../../demo/src/outside/sms-sink.js';
import { SmtpCatcher } from '../../../demo/src/outside/smtp-catcher.js';
import { ALARM_NOTIFIER, type AlarmNotifier } from '../../src/alarm-notice/alarm-notifier.port.js';
import { startApp, type RunningApp } from '../../src/bootstrap.js';
import { loadConfig } from '../../src/config/app-config.js';
import { createManager } from '../factories/fleet.factory.js';
import { HttpClient } from '../support/http-client.js';
import { createDeployment, spawnServer, type Deployment, type ServerProcess } from '../support/server-process.js';
import { TEST_ADMIN } from '../support/test-app.js';

const SMS = { username: 'wv-crash', apiKey: 'crash-api-key-123' };

async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * The crash window (docs/alarms.md, "Notifications"): the worker process is killed (SIGKILL) after
 * the SMTP server or the SMS API took a message and before the worker recorded it.
 */
describe('notifications across worker processes that die and run side by side', () => {
  const catcher = new SmtpCatcher();
  const sink = new SmsSink(SMS);
  let deployment: Deployment;
  let api: RunningApp;
  let worker: ServerProcess | undefined;
  let killed = 0;

  const startWorker = async () => {
    worker = await spawnServer(deployment, { APP_ROLES: 'worker', LOG_LEVEL: 'warn' });
    return worker;
  };
  /** Kills the worker that is sending, before the server answers it. */
  const killSender = async () => {
    const w = worker;
    worker = undefined;
    killed++;
    await w?.kill();
  };

  beforeAll(async () => {
    await catcher.start();
    await sink.start();
    deployment = await createDeployment({
      SMTP_URL: catcher.url,
      MAIL_FROM: 'alarms@crash.test',
      SMS_URL: sink.url,
      SMS_USERNAME: SMS.username,
      SMS_API_KEY: SMS.apiKey,
      NOTIFICATION_LEASE_SECONDS: '3',
      NOTIFICATION_RETRY_DELAY_MS: '500',
      NOTIFICATION_DIGEST_SECONDS: '1',
      LOG_LEVEL: 'error',
    });
    // The API role in this process (the alarm engine's side: it queues); the worker is a child process.
    api = await startApp(loadConfig({ ...deployment.env, APP_ROLES: 'api', PORT: '0' }));
  });
  afterAll(async () => {
    await worker?.kill();
    await api?.close();
    await deployment?.cleanup();
    await catcher.stop();
    await sink.stop();
  });

  it('sends the email again as the same message and gives up the SMS when the sender died while the server held them, and sends the next alarm', async () => {
    const http = new HttpClient(`http://127.0.0.1:${api.port}`);
    const admin = await http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    const manager = await createManager(http, admin);
    const ds = api.app.get(DataSource);
    const notifier = api.app.get<AlarmNotifier>(ALARM_NOTIFIER, { strict: false });
    const alarmMails = () =>
      catcher.messages().filter((m) => m.to.includes(manager.email) && !m.subject.startsWith('Daily'));
    const alarmSms = () => sink.messages().filter((s) => s.to === manager.phoneNumber);

    catcher.onMessage = async (mail) => {
      if (killed === 0 && mail.to.includes(manager.email) && !mail.subject.startsWith('Daily')) await killSender();
    };
    sink.onMessage = async (sms) => {
      if (killed === 1 && sms.some((s) => s.to === manager.phoneNumber)) await killSender();
    };

    const opening = (alarmId: string) => ({
      event: 'opened' as const,
      alarmId,
      espId: manager.devices[0]!.espId,
      kind: 'offline' as const,
      severity: 'critical' as const,
      openedAt: new Date(),
      details: {},
      location: 'Kariakoo',
      ownerId: manager.userId,
      attendantId: null,
    });
    const settled = (alarmId: string) =>
      waitFor(`the deliveries of ${alarmId} settled`, async () => {
        const d = await notifier.deliveries(alarmId);
        return d.length === 2 && d.every((x) => x.status === 'sent' || x.status === 'failed') && d;
      });

    const alarmId = randomUUID();
    await ds.transaction((m) => notifier.enqueue(m, [opening(alarmId)]));

    // Worker 1 sends the email and dies before the answer; worker 2 sends the SMS and dies the same way.
    await startWorker();
    await waitFor('the first worker killed while sending the email', async () => killed === 1);
    await startWorker();
    await waitFor('the second worker killed while sending the SMS', async () => killed === 2);
    await startWorker();

    // docs/alarms.md, "What is guaranteed when a process dies": the SMS is given up (the copy the API
    // took is the only one); the email is sent again as the same message, with the same Message-ID.
    const rows = await settled(alarmId);
    expect(rows.find((r) => r.channel === 'sms')).toMatchObject({ status: 'failed', attempts: 1 });
    expect(rows.find((r) => r.channel === 'email')).toMatchObject({ status: 'sent', attempts: 2 });
    await new Promise((r) => setTimeout(r, 4_000));
    expect(alarmMails()).toHaveLength(2);
    expect(new Set(alarmMails().map((m) => m.messageId)).size).toBe(1);
    expect(alarmMails()[0]!.messageId).toMatch(/^<alarm-[0-9a-f-]+@crash\.test>$/);
    expect(alarmSms()).toHaveLength(1);

    // The next alarm to the same person goes out normally, once per channel.
    const next = randomUUID();
    await ds.transaction((m) => notifier.enqueue(m, [opening(next)]));
    const nextRows = await settled(next);
    expect(nextRows.map((r) => r.status)).toEqual(['sent', 'sent']);
    await new Promise((r) => setTimeout(r, 4_000));
    expect(alarmMails()).toHaveLength(3);
    expect(new Set(alarmMails().map((m) => m.messageId)).size).toBe(2);
    expect(alarmSms()).toHaveLength(2);
  }, 180_000);

  it('sends every message once when two worker processes dispatch the same outbox', async () => {
    catcher.onMessage = undefined;
    sink.onMessage = undefined;
    const http = new HttpClient(`http://127.0.0.1:${api.port}`);
    const admin = await http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    const managers = [
      await createManager(http, admin),
      await createManager(http, admin),
      await createManager(http, admin),
    ];
    const ds = api.app.get(DataSource);
    const notifier = api.app.get<AlarmNotifier>(ALARM_NOTIFIER, { strict: false });
    if (!worker) await startWorker();
    const second = await spawnServer(deployment, { APP_ROLES: 'worker', LOG_LEVEL: 'warn' });
    try {
      for (let round = 0; round < 10; round++) {
        await ds.transaction((m) =>
          notifier.enqueue(
            m,
            managers.flatMap((manager) =>
              Array.from({ length: 10 }, (_, i) => ({
                event: 'opened' as const,
                alarmId: randomUUID(),
                espId: `${manager.devices[0]!.espId}-${round}-${i}`,
                kind: 'low_tank',
                severity: 'major' as const,
                openedAt: new Date(),
                details: {},
                location: null,
                ownerId: manager.userId,
                attendantId: null,
              })),
            ),
          ),
        );
      }
      const ids = managers.map((m) => m.userId);
      await waitFor('all 600 deliveries sent', async () => {
        const [r] = await ds.query(
          `SELECT count(*) FILTER (WHERE status = 'sent' AND attempts = 1)::int AS sent FROM notification_outbox
           WHERE recipient_id = ANY($1::uuid[])`,
          [ids],
        );
        return r.sent === 600;
      });
      await new Promise((r) => setTimeout(r, 2_000));
      for (const manager of managers) {
        const mails = catcher.messages().filter((m) => m.to.includes(manager.email) && !m.subject.startsWith('Daily'));
        expect(mails.reduce((a, m) => a + Number(m.headers['x-alarm-count']), 0)).toBe(100);
        expect(new Set(mails.map((m) => m.messageId)).size).toBe(mails.length);
        const texts = sink.messages().filter((x) => x.to === manager.phoneNumber);
        const count = (t: string) => (/^(\d+) alarms \(/.test(t) ? Number(/^(\d+)/.exec(t)![1]) : 1);
        expect(texts.reduce((a, x) => a + count(x.message), 0)).toBe(100);
      }
    } finally {
      await second.kill();
    }
  }, 180_000);
});
