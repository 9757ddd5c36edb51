import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { migrations } from '../../src/database/migrations/index.js';
import { SmsHandedOver1763711000000 } from '../../src/database/migrations/1763711000000-sms-handed-over.js';
import { dropDatabase, emptyDatabase, migratedUpTo } from '../support/test-databases.js';

/**
 * docs/alarms.md, "What is guaranteed when a process dies": an SMS claimed by a sender of the release before
 * `handed_at` may have reached the SMS API, so the migration marks it handed over (given up if its sender is gone,
 * as before) instead of leaving it to be sent again.
 */
describe('the migration that adds handed_at', () => {
  let name = '';
  let ds: DataSource | undefined;

  beforeAll(async () => {
    name = await emptyDatabase('handed');
  });
  afterAll(async () => {
    if (ds?.isInitialized) await ds.destroy();
    await dropDatabase(name);
  });

  it('marks claimed SMS and receipts in flight as handed over, and nothing else', async () => {
    const upTo = migrations.indexOf(SmsHandedOver1763711000000);
    expect(upTo).toBeGreaterThan(0);
    ds = await migratedUpTo(name, upTo);

    // Rows as the previous release leaves them; their users, alarms and payments do not matter here.
    const runner = ds.createQueryRunner();
    await runner.connect();
    await runner.query(`SET session_replication_role = replica`);
    const alarm = randomUUID();
    const outbox = async (channel: string, status: string, batch: string | null) => {
      const [{ id }] = (await runner.query(
        `INSERT INTO notification_outbox (alarm_id, event, channel, recipient_id, address, status, next_attempt_at,
                                          lease_until, batch_id, updated_at)
         VALUES ($1, 'opened', $2, $3, $4, $5, now(), CASE WHEN $6::uuid IS NOT NULL THEN now() END, $6,
                 now() - interval '5 seconds')
         RETURNING id::text AS id`,
        [alarm, channel, randomUUID(), channel === 'sms' ? '+255700000001' : 'a@wv.test', status, batch],
      )) as { id: string }[];
      return id;
    };
    const claimedSms = await outbox('sms', 'pending', randomUUID());
    const waitingSms = await outbox('sms', 'pending', null);
    const sentSms = await outbox('sms', 'sent', randomUUID());
    const claimedEmail = await outbox('email', 'pending', randomUUID());
    const receipt = async (status: string) => {
      const id = randomUUID();
      await runner.query(
        `INSERT INTO payment_receipts (payment_id, address, balance_after, status, lease_until, updated_at)
         VALUES ($1, '+255700000002', 10, $2, CASE WHEN $2 = 'sending' THEN now() END, now() - interval '5 seconds')`,
        [id, status],
      );
      return id;
    };
    const sendingReceipt = await receipt('sending');
    const pendingReceipt = await receipt('pending');
    await runner.release();
    await ds.destroy();

    ds = await migratedUpTo(name, upTo + 1);
    const handed = async (table: string, key: string, id: string) => {
      const [row] = (await ds!.query(`SELECT handed_at IS NOT NULL AS handed FROM ${table} WHERE ${key} = $1`, [
        id,
      ])) as { handed: boolean }[];
      return row!.handed;
    };
    expect(await handed('notification_outbox', 'id', claimedSms)).toBe(true);
    expect(await handed('notification_outbox', 'id', waitingSms)).toBe(false);
    expect(await handed('notification_outbox', 'id', sentSms)).toBe(false);
    expect(await handed('notification_outbox', 'id', claimedEmail)).toBe(false);
    expect(await handed('payment_receipts', 'payment_id', sendingReceipt)).toBe(true);
    expect(await handed('payment_receipts', 'payment_id', pendingReceipt)).toBe(false);

    // And back: the column goes.
    await ds.undoLastMigration({ transaction: 'each' });
    const columns = (await ds.query(
      `SELECT table_name FROM information_schema.columns WHERE column_name = 'handed_at' AND table_schema = 'public'`,
    )) as unknown[];
    expect(columns).toEqual([]);
  }, 120_000);
});
