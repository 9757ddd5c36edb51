import { randomBytes, randomUUID } from 'node:crypto';
import type { HttpClient } from '../support/http-client.js';

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}${randomBytes(2).toString('hex')}`;

export function randomMac(): string {
  return Array.from(randomBytes(6), (b) => b.toString(16).padStart(2, '0').toUpperCase()).join(':');
}

/** Announces a MAC and gives it an ESP ID through the public API, as an admin would. */
export async function provisionDevice(http: HttpClient, adminToken: string, espId = `ESP-${unique()}`) {
  const macAddress = randomMac();
  const announced = await http.post('/devices/announce', { macAddress });
  if (announced.status !== 202) throw new Error(`announce failed: ${announced.status}`);
  const assigned = await http.post<{ deviceKey: string }>('/assign_id', { macAddress, espId }, { token: adminToken });
  if (assigned.status !== 201) throw new Error(`assign_id failed: ${assigned.status} ${JSON.stringify(assigned.body)}`);
  return { espId, macAddress, deviceKey: assigned.body.deviceKey };
}

export function personFields(prefix = 'user') {
  const id = unique();
  const digits = String(Math.floor(Math.random() * 1e9)).padStart(9, '0');
  return {
    userId: randomUUID(),
    firstName: `${prefix}-first`,
    lastName: `${prefix}-last`,
    username: `${prefix}-${id}`,
    email: `${prefix}-${id}@test.local`,
    password: 'password-1234',
    phoneNumber: `+2557${digits.slice(0, 8)}`,
    location: 'Dar es Salaam',
  };
}

export interface Person {
  userId: string;
  email: string;
  password: string;
  phoneNumber: string;
  token: string;
}

/** A manager owning `deviceCount` new devices. */
export async function createManager(http: HttpClient, adminToken: string, deviceCount = 1) {
  const devices = [];
  for (let i = 0; i < deviceCount; i++) devices.push(await provisionDevice(http, adminToken));
  const fields = personFields('manager');
  const res = await http.post(
    '/admin/register-user',
    { ...fields, esp32Id: devices[0]!.espId, machine_location: 'Kariakoo' },
    { token: adminToken },
  );
  if (res.status !== 201) throw new Error(`register-user failed: ${res.status} ${JSON.stringify(res.body)}`);
  for (const d of devices.slice(1)) {
    const added = await http.post(
      '/add/user/devices',
      { userId: fields.userId, esp32Id: d.espId, machine_location: 'Mwenge' },
      { token: adminToken },
    );
    if (added.status !== 201) throw new Error(`add device failed: ${added.status}`);
  }
  const token = await http.login(fields.email, fields.password);
  return { ...fields, token, devices };
}

/** An attendant created by `manager` for the manager's device `espId`. */
export async function createAttendant(http: HttpClient, managerToken: string, espId: string) {
  const fields = { ...personFields('attendant'), email: undefined as string | undefined };
  const res = await http.post(
    '/attendant/user/register-user',
    { ...fields, esp32Id: espId, machine_location: 'Ubungo stand' },
    { token: managerToken },
  );
  if (res.status !== 201) throw new Error(`attendant registration failed: ${res.status} ${JSON.stringify(res.body)}`);
  const token = await http.login(fields.phoneNumber, fields.password);
  return { ...fields, token, espId };
}
