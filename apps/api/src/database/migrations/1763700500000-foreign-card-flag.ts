import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Card sales get the flag `foreign_card`: a card works only at the machines of the manager who owns
 * the machine it was registered at, and a sale elsewhere is kept but never charged to the card.
 * The wider check is added NOT VALID: every existing row already passed the narrower one it replaces,
 * so scanning a large sales table under the migration's lock would prove nothing; new rows are checked.
 */
export class ForeignCardFlag1763700500000 implements MigrationInterface {
  name = 'ForeignCardFlag1763700500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sales DROP CONSTRAINT sales_flag_check`);
    await q.query(
      `ALTER TABLE sales ADD CONSTRAINT sales_flag_check
       CHECK (flag IN ('unknown_card', 'overdrawn', 'foreign_card')) NOT VALID`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    // Foreign-card sales keep their row; they lose only the flag the older schema cannot hold.
    await q.query(`ALTER TABLE sales DROP CONSTRAINT sales_flag_check`);
    await q.query(`UPDATE sales SET flag = NULL WHERE flag = 'foreign_card'`);
    await q.query(`ALTER TABLE sales ADD CONSTRAINT sales_flag_check CHECK (flag IN ('unknown_card', 'overdrawn'))`);
  }
}
