import { randomBytes, randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { waitFor } from '../support/mqtt-machine.js';
import type { HttpClient } from '../support/http-client.js';

export const newCardId = () => `CARD-${randomBytes(5).toString('hex').toUpperCase()}`;

export function cardFields(overrides: Record<string, unknown> = {}) {
  return {
    card_id: newCardId(),
    card_holder_first_name: 'Asha',
    card_holder_last_name: 'Mwita',
    phoneNumber: '+255712345678',
    card_balance: 0,
    card_type: 'household',
    ...overrides,
  };
}

/** The attendant asks for `amount` and their manager approves it: the attendant's float grows by `amount`. */
export async function fundAttendant(
  http: HttpClient,
  managerToken: string,
  attendant: { token: string; userId: string },
  amount: number,
) {
  const asked = await http.post('/attendant/request-float', { amount }, { token: attendant.token });
  if (asked.status !== 201) throw new Error(`request-float failed: ${asked.status} ${JSON.stringify(asked.body)}`);
  const assigned = await http.post(
    '/manager/assign-float',
    { attendantId: attendant.userId, amount },
    { token: managerToken },
  );
  if (assigned.status !== 201)
    throw new Error(`assign-float failed: ${assigned.status} ${JSON.stringify(assigned.body)}`);
}

export async function registerCard(http: HttpClient, attendantToken: string, overrides: Record<string, unknown> = {}) {
  const fields = cardFields(overrides);
  const res = await http.post<{ id: string }>('/att/add/user/card', fields, { token: attendantToken });
  if (res.status !== 201) throw new Error(`add card failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { ...fields, id: res.body.id };
}

/** A card sale through the REST ingest, awaited until the worker committed it. */
export async function sellOnCard(
  http: HttpClient,
  dataSource: DataSource,
  device: { espId: string; deviceKey: string },
  cardId: string,
  price: number,
) {
  const eventId = randomUUID();
  const res = await http.post(
    `/machines/${device.espId}/sales`,
    { eventId, kind: 'card', cardId, price, volume: 5, waterType: 'pure', time: new Date().toISOString() },
    { headers: { 'x-device-key': device.deviceKey } },
  );
  if (res.status !== 202) throw new Error(`sale failed: ${res.status} ${JSON.stringify(res.body)}`);
  await waitFor(
    () => dataSource.query(`SELECT 1 FROM sales WHERE esp_id = $1 AND event_id = $2`, [device.espId, eventId]),
    (rows) => rows.length === 1,
  );
  return eventId;
}

/**
 * The ledger's invariants, over the whole database: every balance equals the sum of its entries and
 * its latest entry's balance_after; no float balance is negative; no request is credited twice.
 * Returns the violations (empty when all hold).
 */
export async function ledgerViolations(dataSource: DataSource): Promise<unknown[]> {
  return dataSource.query(`
    WITH sums AS (
      SELECT account_type, account_id, sum(amount) AS total,
             (array_agg(balance_after ORDER BY id DESC))[1] AS last_after
      FROM ledger_entries GROUP BY account_type, account_id
    ),
    balances AS (
      SELECT 'card' AS account_type, id AS account_id, balance FROM cards
      UNION ALL SELECT 'float', attendant_id, balance FROM float_accounts
    )
    SELECT 'balance <> sum of entries' AS violation, b.account_type, b.account_id::text, b.balance::text,
           coalesce(s.total, 0)::text AS total
    FROM balances b LEFT JOIN sums s USING (account_type, account_id)
    WHERE b.balance <> coalesce(s.total, 0) OR (s.last_after IS NOT NULL AND s.last_after <> b.balance)
    UNION ALL
    SELECT 'entries without an account', s.account_type, s.account_id::text, NULL, s.total::text
    FROM sums s LEFT JOIN balances b USING (account_type, account_id) WHERE b.account_id IS NULL
    UNION ALL
    SELECT 'negative float', 'float', attendant_id::text, balance::text, NULL FROM float_accounts WHERE balance < 0
    UNION ALL
    SELECT 'approval credited twice', 'float', reference, count(*)::text, NULL
    FROM ledger_entries WHERE kind = 'float_approval' GROUP BY reference HAVING count(*) > 1
    UNION ALL
    SELECT 'approved request without one credit', 'float', r.id::text, r.approved_amount::text, NULL
    FROM float_requests r LEFT JOIN ledger_entries e ON e.kind = 'float_approval' AND e.reference = r.id::text
    WHERE r.status = 'approved' AND (e.id IS NULL OR e.amount <> r.approved_amount)
    UNION ALL
    SELECT 'credit without an approved request', 'float', e.reference, e.amount::text, NULL
    FROM ledger_entries e LEFT JOIN float_requests r ON r.id::text = e.reference AND r.status = 'approved'
    WHERE e.kind = 'float_approval' AND r.id IS NULL`);
}
