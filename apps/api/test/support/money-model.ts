/**
 * A simple model of the money ledger for the property test: float per attendant, card balances and
 * float requests, in integer cents. `step` says what the API must answer to one call in a given state
 * and applies its effect; `linearize` finds an order of a batch of concurrent calls that explains
 * every answer and the database's state afterwards (the calls must be serialisable).
 */
export type Status = 'pending' | 'approved' | 'rejected';

export interface ModelRequest {
  id: string | null;
  att: number;
  amount: number;
  status: Status;
  approved: number | null;
}

export interface Model {
  float: number[];
  cards: Map<string, { att: number; balance: number }>;
  requests: ModelRequest[];
}

export type Call =
  | { t: 'request'; att: number; amount: number }
  | { t: 'approve'; requestId: string; att: number; amount: number }
  | { t: 'approveOldest'; att: number; amount: number }
  | { t: 'reject'; requestId: string }
  | { t: 'register'; att: number; cardId: string; amount: number }
  | { t: 'topUp'; att: number; cardId: string; amount: number }
  | { t: 'sale'; cardId: string; price: number };

export interface Answer {
  status: number;
  body?: unknown;
}

export interface ServerState {
  float: number[];
  cards: Map<string, number>;
  /** This run's requests in the order the server created them. */
  requests: (ModelRequest & { id: string })[];
}

export const clone = (m: Model): Model => ({
  float: [...m.float],
  cards: new Map([...m.cards].map(([k, v]) => [k, { ...v }])),
  requests: m.requests.map((r) => ({ ...r })),
});

function approve(m: Model, r: ModelRequest | undefined, amount: number, missing: number): Answer {
  if (!r) return { status: missing };
  if (r.status !== 'pending') return { status: 409 };
  r.status = 'approved';
  r.approved = amount;
  m.float[r.att]! += amount;
  return { status: 201 };
}

/** What the API must answer to `call` in state `m`; applies the call's effect to `m`. */
export function step(m: Model, call: Call): Answer {
  switch (call.t) {
    case 'request':
      m.requests.push({ id: null, att: call.att, amount: call.amount, status: 'pending', approved: null });
      return { status: 201 };
    case 'approve':
      return approve(
        m,
        m.requests.find((r) => r.id === call.requestId),
        call.amount,
        404,
      );
    case 'approveOldest':
      return approve(
        m,
        m.requests.find((r) => r.att === call.att && r.status === 'pending'),
        call.amount,
        404,
      );
    case 'reject': {
      const r = m.requests.find((x) => x.id === call.requestId);
      if (!r) return { status: 404 };
      if (r.status !== 'pending') return { status: 409 };
      r.status = 'rejected';
      return { status: 200 };
    }
    case 'register':
      if (m.cards.has(call.cardId)) return { status: 409 };
      if (m.float[call.att]! < call.amount) return { status: 422 };
      m.float[call.att]! -= call.amount;
      m.cards.set(call.cardId, { att: call.att, balance: call.amount });
      return { status: 201 };
    case 'topUp': {
      const card = m.cards.get(call.cardId);
      if (!card || card.att !== call.att) return { status: 404 };
      if (m.float[call.att]! < call.amount) return { status: 422 };
      m.float[call.att]! -= call.amount;
      card.balance += call.amount;
      return { status: 201, body: { card_balance: card.balance / 100 } };
    }
    case 'sale': {
      // Never refused (the water was dispensed); a debit the card may not cover goes negative.
      const card = m.cards.get(call.cardId);
      if (card) card.balance -= call.price;
      return { status: 202 };
    }
  }
}

function* permutations<T>(items: T[]): Generator<T[]> {
  if (items.length <= 1) {
    yield items;
    return;
  }
  for (let i = 0; i < items.length; i++) {
    const rest = [...items.slice(0, i), ...items.slice(i + 1)];
    for (const p of permutations(rest)) yield [items[i]!, ...p];
  }
}

const requestKey = (r: ModelRequest) => `${r.att}|${r.amount}|${r.status}|${r.approved}`;

/** True when the model's requests are the server's, known ids matching exactly and new ones by value. */
function sameRequests(model: ModelRequest[], server: ServerState['requests']): boolean {
  if (model.length !== server.length) return false;
  const unmatched = new Map<string, number>();
  for (const s of server) {
    const known = model.find((r) => r.id === s.id);
    if (known) {
      if (requestKey(known) !== requestKey(s)) return false;
    } else unmatched.set(requestKey(s), (unmatched.get(requestKey(s)) ?? 0) + 1);
  }
  for (const r of model.filter((x) => x.id === null)) {
    const n = unmatched.get(requestKey(r)) ?? 0;
    if (n === 0) return false;
    unmatched.set(requestKey(r), n - 1);
  }
  return true;
}

function sameState(m: Model, server: ServerState): boolean {
  if (m.float.some((f, i) => f !== server.float[i])) return false;
  for (const [cardId, card] of m.cards) if (server.cards.get(cardId) !== card.balance) return false;
  return sameRequests(m.requests, server.requests);
}

const sameAnswer = (expected: Answer, actual: Answer) =>
  expected.status === 202 ||
  (expected.status === actual.status &&
    (expected.body === undefined || JSON.stringify(expected.body) === JSON.stringify(actual.body)));

/**
 * The model after a batch of concurrent calls, if some serial order of them explains every answer
 * and the server's state (when given); null when none does (the server was not serialisable, or wrong).
 */
export function linearize(m: Model, batch: { call: Call; answer: Answer }[], server: ServerState | null): Model | null {
  for (const order of permutations(batch)) {
    const next = clone(m);
    if (!order.every(({ call, answer }) => sameAnswer(step(next, call), answer))) continue;
    if (server === null) return next;
    if (!sameState(next, server)) continue;
    // Adopt the server's ids and creation order for the requests (the model now knows them).
    next.requests = server.requests.map((r) => ({ ...r }));
    return next;
  }
  return null;
}
