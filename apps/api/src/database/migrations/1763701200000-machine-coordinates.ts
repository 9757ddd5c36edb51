import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Where a machine stands, for the fleet map (docs/web-app.md, "Fleet dashboard"): WGS 84 degrees with six
 * decimals (about 10 cm), both or neither, in range. Set on the device settings page.
 */
export class MachineCoordinates1763701200000 implements MigrationInterface {
  name = 'MachineCoordinates1763701200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE devices
        ADD COLUMN latitude numeric(8,6) CHECK (latitude BETWEEN -90 AND 90),
        ADD COLUMN longitude numeric(9,6) CHECK (longitude BETWEEN -180 AND 180),
        ADD CONSTRAINT devices_coordinates_pair CHECK ((latitude IS NULL) = (longitude IS NULL))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE devices DROP CONSTRAINT devices_coordinates_pair, DROP COLUMN longitude, DROP COLUMN latitude`,
    );
  }
}
