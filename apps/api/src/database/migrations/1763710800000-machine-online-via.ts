import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which broker process holds an online machine's session (docs/scale-out.md, "Machine status with several broker
 * processes"): a broker that starts marks offline only the machines of processes that are gone, not those of the
 * other live ones.
 */
export class MachineOnlineVia1763710800000 implements MigrationInterface {
  name = 'MachineOnlineVia1763710800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE devices ADD COLUMN online_via text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE devices DROP COLUMN online_via`);
  }
}
