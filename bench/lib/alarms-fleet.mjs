// The fleet of bench/alarms.bench.mjs: machines inserted straight into the benchmark's database (as
// bench/lib/load-fleet.mjs does), split into contiguous blocks, each owned by a manager created
// through the API with an email address and a phone number, so that alarm messages go out by email
// and SMS (docs/alarms.md, "Recipients and preferences").
import { randomUUID } from 'node:crypto';
import { insertLoadDevices, loadEspId } from './load-fleet.mjs';

/** The machines [from, to) of manager `k` of `managers`. */
export function block(k, managers, machines) {
  return { from: Math.floor((k * machines) / managers), to: Math.floor(((k + 1) * machines) / managers) };
}

export const espIdsOf = ({ from, to }) => Array.from({ length: to - from }, (_, j) => loadEspId(from + j));

/**
 * Inserts `machines` machines and creates `managers` managers through POST /admin/register-user (which
 * gives each the first machine of its block); the rest of each block is given to its manager in SQL.
 * Returns the managers `{userId, email, phoneNumber, from, to}`.
 */
export async function createFleet({ db, api, adminToken, secret, machines, managers }) {
  await insertLoadDevices(db, secret, machines);
  const people = [];
  for (let k = 0; k < managers; k++) {
    const range = block(k, managers, machines);
    const tag = String(k).padStart(2, '0');
    const person = {
      userId: randomUUID(),
      firstName: 'Bench',
      lastName: `Manager${tag}`,
      username: `bench-manager-${tag}`,
      email: `manager${tag}@alarms.bench`,
      password: 'bench-pass-1234',
      // E.164, Tanzania: +255 7XX XXX XXX.
      phoneNumber: `+2557100000${tag}`,
      location: 'Dar es Salaam',
      esp32Id: loadEspId(range.from),
      machine_location: `Block ${tag}`,
    };
    const res = await fetch(`${api}/admin/register-user`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
      body: JSON.stringify(person),
    });
    if (res.status !== 201) throw new Error(`register-user: ${res.status} ${await res.text()}`);
    await db.query(`UPDATE devices SET owner_id = $1, location = $2 WHERE esp_id = ANY($3::text[])`, [
      person.userId,
      person.machine_location,
      espIdsOf(range),
    ]);
    people.push({ userId: person.userId, email: person.email, phoneNumber: person.phoneNumber, ...range });
  }
  return people;
}

/** offlineAfterMinutes for these machines, written in the benchmark's own database (docs/alarms.md, "Settings"). */
export async function setOfflineAfter(db, espIds, minutes) {
  await db.query(
    `INSERT INTO alarm_settings (esp_id, offline_after_minutes) SELECT unnest($1::text[]), $2
     ON CONFLICT (esp_id) DO UPDATE SET offline_after_minutes = excluded.offline_after_minutes, updated_at = now()`,
    [espIds, minutes],
  );
}
