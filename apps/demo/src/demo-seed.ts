import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { DeviceEntity, DeviceKeyService, hashPassword, UserEntity } from '@wv/api';
import { machinePosition } from '@wv/simulator';
import {
  DEMO_ACCOUNTS,
  DEMO_LOCATIONS,
  DEMO_MACHINE_COUNT,
  DEMO_PASSWORD,
  demoEspId,
  demoMac,
} from './demo-accounts.js';

export interface DemoFleet {
  machines: { espId: string; deviceKey: string }[];
}

/**
 * Creates the demo accounts and machines when absent, and gives every demo machine a fresh device
 * key for this run's simulator (keys are stored only as hashes, so they cannot be read back) and, when
 * it has none yet, its place in Dar es Salaam from the simulator.
 */
export async function seedDemo(dataSource: DataSource): Promise<DemoFleet> {
  const logger = new Logger('Demo');
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const ids = await dataSource.transaction(async (m) => {
    const users = m.getRepository(UserEntity);
    const ensure = async (role: 'admin' | 'manager' | 'attendant', managerId: string | null) => {
      const a = DEMO_ACCOUNTS[role];
      const found = await users.findOne({ where: { email: a.email } });
      if (found) return found.id;
      const id = randomUUID();
      await users.insert({
        id,
        role,
        firstName: a.firstName,
        lastName: a.lastName,
        username: a.username,
        companyName: 'companyName' in a ? a.companyName : null,
        email: a.email,
        phoneNumber: a.phone,
        location: 'Dar es Salaam',
        passwordHash,
        managerId,
        tokensValidAfter: new Date(0),
      });
      logger.log(`Created demo ${role} ${a.email}`);
      return id;
    };
    const admin = await ensure('admin', null);
    const manager = await ensure('manager', null);
    const attendant = await ensure('attendant', manager);
    return { admin, manager, attendant };
  });

  const machines: DemoFleet['machines'] = [];
  await dataSource.transaction(async (m) => {
    const devices = m.getRepository(DeviceEntity);
    for (let i = 0; i < DEMO_MACHINE_COUNT; i++) {
      const espId = demoEspId(i);
      const { key, hash } = DeviceKeyService.generate();
      const existing = await devices.findOne({ where: { espId } });
      if (existing) {
        await devices.update({ espId }, { keyHash: hash, keyRotatedAt: new Date() });
      } else {
        await devices.insert({
          espId,
          macAddress: demoMac(i),
          ownerId: ids.manager,
          attendantId: i === 0 ? ids.attendant : null,
          location: DEMO_LOCATIONS[i % DEMO_LOCATIONS.length]!,
          keyHash: hash,
          keyRotatedAt: new Date(),
          firmware: 'wv-fw 2.4.1',
        });
      }
      // Where the machine stands on the fleet map (docs/web-app.md, "Fleet map"), unless someone has moved it.
      const { latitude, longitude } = machinePosition(i);
      await m.query('UPDATE devices SET latitude = $2, longitude = $3 WHERE esp_id = $1 AND latitude IS NULL', [
        espId,
        latitude,
        longitude,
      ]);
      machines.push({ espId, deviceKey: key });
    }
  });
  return { machines };
}
