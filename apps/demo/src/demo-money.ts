import { Logger } from '@nestjs/common';
import { DEMO_ACCOUNTS } from './demo-accounts.js';
import { demoCall, demoLogin } from './demo-api.js';

const HOLDERS = [
  ['Amina', 'Juma'],
  ['Baraka', 'Mollel'],
  ['Chausiku', 'Said'],
  ['Daudi', 'Mrema'],
  ['Esther', 'Kimaro'],
  ['Faraji', 'Lyimo'],
  ['Grace', 'Mushi'],
  ['Hamisi', 'Ngowi'],
  // The last card holds less than a sale: the demo overdraws it on purpose (demo-exceptions.ts).
  ['Imani', 'Swai'],
];
export const DEMO_CARDS = HOLDERS.map((_, i) => `DEMO-CARD-${String(i + 1).padStart(3, '0')}`);

/**
 * Float and cards for the demo, made through the public API as the demo people would, so that every
 * shilling is in the ledger: the attendant asks for float, the manager approves it, the attendant
 * registers cards with balances loaded from that float. Skipped when the cards exist.
 */
export async function seedDemoMoney(baseUrl: string, espId: string): Promise<void> {
  const call = (method: string, path: string, token?: string, body?: unknown) =>
    demoCall(baseUrl, method, path, token, body);
  const login = (email: string) => demoLogin(baseUrl, email);
  const attendant = await login(DEMO_ACCOUNTS.attendant.email);
  const existing = (await call('GET', `/cards/${espId}`, attendant)) as unknown[];
  if (existing.length > 0) return;
  const manager = await login(DEMO_ACCOUNTS.manager.email);

  await call('POST', '/attendant/request-float', attendant, { amount: 250_000 });
  const [pending] = (await call('GET', '/manager/float-requests', manager)) as {
    requestId: string;
    attendantId: string;
  }[];
  await call('POST', '/manager/assign-float', manager, {
    attendantId: pending!.attendantId,
    requestId: pending!.requestId,
    amount: 250_000,
  });
  for (const [i, [first, last]] of HOLDERS.entries()) {
    await call('POST', '/att/add/user/card', attendant, {
      card_id: DEMO_CARDS[i],
      card_holder_first_name: first,
      card_holder_last_name: last,
      phoneNumber: `07${String(12345670 + i)}`,
      card_balance: i === HOLDERS.length - 1 ? 300 : 10_000 + i * 2_500,
      card_type: i % 3 === 0 ? 'Family' : 'Standard',
    });
  }
  // A request still waiting, so the manager's Float Approval screen has something to show.
  await call('POST', '/attendant/request-float', attendant, { amount: 50_000 });
  new Logger('Demo').log(`Approved float and registered ${HOLDERS.length} cards at ${espId}`);
}
