import { randomBytes, randomUUID } from 'node:crypto';
import type {
  AddCardRequest,
  AddUserDeviceRequest,
  AssignIdRequest,
  AssignIdResponse,
  FloatRequestRow,
  IngestResponse,
  LoginResponse,
  PendingFloatRequest,
  RegisterAttendantRequest,
  RegisterUserRequest,
  Sale,
} from '@wv/contracts';

/**
 * Test data, made only through the public HTTP API, as an operator would: machines announce
 * themselves and get an id from the admin; the admin registers managers; managers register attendants.
 */
export interface Account {
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  phoneNumber: string;
  password: string;
}

const unique = () => randomBytes(4).toString('hex');

/** A locally administered unicast MAC, so it can never be a real vendor's. */
export const randomMac = () =>
  ['02', ...Array.from(randomBytes(5), (b) => b.toString(16).padStart(2, '0'))].join(':').toUpperCase();

export const randomEspId = () => `ESP-E2E-${unique().toUpperCase()}`;

/** A Tanzanian mobile number, unique enough for one test database. */
export const randomPhone = () => `+2557${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

export interface Machine {
  espId: string;
  macAddress: string;
  deviceKey: string;
}

/** Polls `read` until `done` holds (ingest is asynchronous: queued, then committed). */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  let failure: unknown;
  while (Date.now() < deadline) {
    try {
      last = await read();
      failure = undefined;
      if (done(last)) return last;
    } catch (error) {
      failure = error;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`Timed out; last value ${JSON.stringify(last)}${failure ? `, last error ${String(failure)}` : ''}`);
}

export class Seeder {
  constructor(private readonly baseUrl: string) {}

  private async call<T>(
    method: string,
    path: string,
    body?: unknown,
    token?: string,
    extraHeaders: Record<string, string> = {},
  ): Promise<T> {
    const headers: Record<string, string> = { ...extraHeaders };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(`${this.baseUrl}/api${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  async login(identifier: string, password: string): Promise<string> {
    return (await this.call<LoginResponse>('POST', '/login', { identifier, password })).token;
  }

  /** The status of a login attempt, for checks such as "a removed attendant can no longer sign in". */
  async loginStatus(identifier: string, password: string): Promise<number> {
    const res = await fetch(`${this.baseUrl}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identifier, password }),
    });
    await res.text();
    return res.status;
  }

  /** A machine announcing its MAC address (it then waits in GET /get_mac_addresses). */
  async announce(macAddress = randomMac()): Promise<string> {
    await this.call('POST', '/devices/announce', { macAddress });
    return macAddress;
  }

  /** A provisioned machine: announced, then given an ESP ID (and its device key) by the admin. */
  async createDevice(adminToken: string, espId = randomEspId()): Promise<Machine> {
    const macAddress = await this.announce();
    const body: AssignIdRequest = { macAddress, espId };
    const { deviceKey } = await this.call<AssignIdResponse>('POST', '/assign_id', body, adminToken);
    return { espId, macAddress, deviceKey };
  }

  /**
   * Sales sent by the machine over REST (docs/rest-api.md, "Details": REST ingest), authenticated by its device key.
   */
  async postSales(machine: Machine, sales: Sale[]): Promise<IngestResponse> {
    return this.call<IngestResponse>('POST', `/machines/${machine.espId}/sales`, sales, undefined, {
      'x-device-key': machine.deviceKey,
    });
  }

  /** Any signed-in GET, e.g. to wait until ingested sales are listed. */
  get<T>(path: string, token: string): Promise<T> {
    return this.call<T>('GET', path, undefined, token);
  }

  /** The attendant asks for float. */
  async requestFloat(attendantToken: string, amount: number): Promise<void> {
    await this.call('POST', '/attendant/request-float', { amount }, attendantToken, {
      'idempotency-key': randomUUID(),
    });
  }

  /** The manager approves the attendant's oldest pending request (or `requestId`) with `amount`. */
  async assignFloat(managerToken: string, attendantId: string, amount: number, requestId?: string): Promise<void> {
    await this.call('POST', '/manager/assign-float', { attendantId, amount, requestId }, managerToken, {
      'idempotency-key': randomUUID(),
    });
  }

  /** An attendant with `amount` of approved float: requested by them, approved by their manager. */
  async fundAttendant(managerToken: string, attendant: Account, amount: number): Promise<string> {
    const token = await this.login(attendant.email, attendant.password);
    await this.requestFloat(token, amount);
    await this.assignFloat(managerToken, attendant.userId, amount);
    return token;
  }

  async attendantFloatRequests(attendantToken: string): Promise<FloatRequestRow[]> {
    return this.get<FloatRequestRow[]>('/attendant/float-requests', attendantToken);
  }

  async managerFloatRequests(managerToken: string): Promise<PendingFloatRequest[]> {
    return this.get<PendingFloatRequest[]>('/manager/float-requests', managerToken);
  }

  /** A card registered by the attendant at their machine, loaded from their float. */
  async addCard(attendantToken: string, card: AddCardRequest): Promise<string> {
    const { id } = await this.call<{ id: string }>('POST', '/att/add/user/card', card, attendantToken, {
      'idempotency-key': randomUUID(),
    });
    return id;
  }

  /** A manager owning `esp32Id`, registered by the admin. */
  async createManager(adminToken: string, esp32Id: string, machineLocation = 'Kariakoo Market'): Promise<Account> {
    const id = unique();
    const account: Account = {
      userId: randomUUID(),
      firstName: 'Maria',
      lastName: `Manager${id}`,
      email: `manager-${id}@e2e.test`,
      phoneNumber: randomPhone(),
      password: `manager-pass-${id}`,
    };
    const body: RegisterUserRequest = {
      ...account,
      username: `AquaCo ${id}`,
      location: 'Dar es Salaam',
      esp32Id,
      machine_location: machineLocation,
    };
    await this.call('POST', '/admin/register-user', body, adminToken);
    return account;
  }

  /** Gives one more device to a user (admin). */
  async addDevice(adminToken: string, userId: string, esp32Id: string, machineLocation = 'Mwenge'): Promise<void> {
    const body: AddUserDeviceRequest = { userId, esp32Id, machine_location: machineLocation };
    await this.call('POST', '/add/user/devices', body, adminToken);
  }

  /** An attendant for one of the manager's devices, registered by that manager. */
  async createAttendant(managerToken: string, esp32Id: string): Promise<Account> {
    const id = unique();
    const account: Account = {
      userId: randomUUID(),
      firstName: 'Juma',
      lastName: `Attendant${id}`,
      email: `attendant-${id}@e2e.test`,
      phoneNumber: randomPhone(),
      password: `attendant-pass-${id}`,
    };
    const body: RegisterAttendantRequest = {
      ...account,
      username: `AquaCo ${id}`,
      location: 'Dar es Salaam',
      esp32Id,
      machine_location: 'Kariakoo Market',
    };
    await this.call('POST', '/attendant/user/register-user', body, managerToken);
    return account;
  }
}
