import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Card lists on the machines (docs/device-protocol.md, "Card lists"):
 * - `card_list_state`, one row per machine: the newest version of its list, the version it said it
 *   holds, the version of the last full list (the retained one), whether changes wait for the machine
 *   to acknowledge a full list, and the owner the list was built for (a machine whose owner changed
 *   gets a new list);
 * - `card_list_cards`, one row per card: what the lists carry of it as last sent and to which group
 *   of machines (an owner's machines, or one unowned machine), so that a change is sent only when it
 *   changes what a machine holds, and a card that left a group is removed from its lists.
 */
export class CardLists1763700800000 implements MigrationInterface {
  name = 'CardLists1763700800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE card_list_state (
        esp_id text PRIMARY KEY REFERENCES devices(esp_id) ON DELETE CASCADE,
        version integer NOT NULL DEFAULT 0 CHECK (version >= 0),
        acked_version integer NOT NULL DEFAULT 0 CHECK (acked_version >= 0),
        acked_at timestamptz,
        full_version integer NOT NULL DEFAULT 0,
        -- changes not sent yet because a full list the machine has not acknowledged is on its way
        stale boolean NOT NULL DEFAULT false,
        sent_at timestamptz,
        owner_id uuid,
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT card_list_state_acked_le_version CHECK (acked_version <= version)
      )`);
    await q.query(`
      CREATE TABLE card_list_cards (
        card_id text PRIMARY KEY,
        group_key text NOT NULL,
        status text NOT NULL,
        balance numeric(14,2) NOT NULL,
        daily_limit_litres numeric(12,3),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX card_list_cards_group_idx ON card_list_cards (group_key)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE card_list_cards`);
    await q.query(`DROP TABLE card_list_state`);
  }
}
