import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When an SMS (an alarm message or a payment receipt) was handed to the SMS API (docs/alarms.md, "What is
 * guaranteed when a process dies"): a claimed SMS whose sender died before this moment never left and is sent
 * again; one whose sender died after it may have arrived and is given up.
 */
export class SmsHandedOver1763711000000 implements MigrationInterface {
  name = 'SmsHandedOver1763711000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE notification_outbox ADD COLUMN handed_at timestamptz`);
    await q.query(`ALTER TABLE payment_receipts ADD COLUMN handed_at timestamptz`);
    // What a sender of the previous release held when it stopped may have reached the SMS API: as before, given up.
    await q.query(
      `UPDATE notification_outbox SET handed_at = updated_at
       WHERE channel = 'sms' AND batch_id IS NOT NULL AND status IN ('pending', 'deferred')`,
    );
    await q.query(`UPDATE payment_receipts SET handed_at = updated_at WHERE status = 'sending'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE payment_receipts DROP COLUMN handed_at`);
    await q.query(`ALTER TABLE notification_outbox DROP COLUMN handed_at`);
  }
}
