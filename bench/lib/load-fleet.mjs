// Machines for the load benchmarks, inserted straight into the benchmark's database: provisioning
// 20,000 through the API would take longer than the benchmark. A device key's stored form is its
// SHA-256 in hex (apps/api/src/device/device-key.service.ts); the keys are derived from a secret so
// that every client process can compute its machines' keys.
import { createHash, createHmac } from 'node:crypto';

export const loadEspId = (i) => `LOAD-${String(i).padStart(6, '0')}`;
export const loadKey = (secret, i) => createHmac('sha256', secret).update(String(i)).digest('base64url');

export async function insertLoadDevices(db, secret, count, ownerId = null) {
  for (let start = 0; start < count; start += 5000) {
    const ids = [];
    const hashes = [];
    for (let i = start; i < Math.min(count, start + 5000); i++) {
      ids.push(loadEspId(i));
      hashes.push(createHash('sha256').update(loadKey(secret, i), 'utf8').digest('hex'));
    }
    await db.query(
      `INSERT INTO devices (esp_id, key_hash, owner_id, location)
       SELECT id, hash, $3::uuid, 'Load test' FROM unnest($1::text[], $2::text[]) AS t(id, hash)`,
      [ids, hashes, ownerId],
    );
  }
}
