import { IDEMPOTENCY_KEY_HEADER } from '@wv/contracts';
import type { Random } from '@wv/simulator';

export interface MoneyActor {
  userId: string;
  token: string;
  espId: string;
  /** Card UIDs this attendant registers during the run; the machine sells on them too. */
  cardIds: string[];
}

/** What the clients were told, in whole shillings: the server's books must say the same. */
export interface AttendantBook {
  userId: string;
  /** Approved float credited to the attendant. */
  approved: number;
  /** Float left: approved minus card loads and top-ups. */
  float: number;
  /** Per registered card: its load plus its top-ups. */
  loaded: Map<string, number>;
}

interface Answer {
  status: number;
  body: any;
}

const ANSWER_DEADLINE_MS = 120_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Attendants and their manager moving money while faults happen: float requests and approvals, card
 * registrations with a load, top-ups. Every money call carries an Idempotency-Key and is retried
 * with the same key until it gets a real answer (not a 5xx, a 429 or a dropped connection), as the
 * web app does; so the client knows exactly what happened and keeps its own book to compare.
 */
export class MoneyWorkload {
  /** Money calls that got their answer (retries not counted). */
  calls = 0;
  retries = 0;
  readonly violations: string[] = [];
  readonly books: AttendantBook[];
  private keyCounter = 0;
  private unanswered = false;

  constructor(
    private readonly options: {
      baseUrl: () => string;
      managerToken: string;
      attendants: MoneyActor[];
      rng: Random;
      tag: string;
    },
  ) {
    this.books = options.attendants.map((a) => ({ userId: a.userId, approved: 0, float: 0, loaded: new Map() }));
  }

  /** Makes `quota` money calls spread over about `spreadMs`, one loop per attendant. */
  async run(quota: number, spreadMs: number): Promise<void> {
    const { attendants, rng } = this.options;
    const perAttendant = Math.ceil(quota / attendants.length);
    const pause = spreadMs / perAttendant;
    await Promise.all(
      attendants.map(async (actor, i) => {
        const mine = rng.fork(i + 1);
        const book = this.books[i]!;
        // After a call that never got an answer the run has failed: stop rather than wait on every call.
        for (let made = 0; made < perAttendant && !this.unanswered;) {
          made += await this.step(actor, book, mine);
          await sleep(pause * (0.5 + mine.next()));
        }
      }),
    );
  }

  private async step(actor: MoneyActor, book: AttendantBook, rng: Random): Promise<number> {
    const unregistered = actor.cardIds.filter((c) => !book.loaded.has(c));
    if (book.float < 3_000 || rng.next() < 0.1) return this.fund(actor, book, rng);
    if (unregistered.length && (book.loaded.size === 0 || rng.next() < 0.35)) {
      // Now and then more than the float holds: the server must refuse it (422) and move nothing.
      const load = rng.next() < 0.1 ? book.float + rng.int(1, 1_000) : rng.int(0, Math.min(book.float, 2_000));
      const cardId = unregistered[0]!;
      const answer = await this.call('POST', '/att/add/user/card', actor.token, {
        card_id: cardId,
        card_holder_first_name: 'Soak',
        card_holder_last_name: `Holder ${book.loaded.size + 1}`,
        card_balance: load,
        card_type: 'household',
      });
      if (answer.status === 201) {
        if (load > book.float) this.unexpected('add card', answer, `accepted ${load} with float ${book.float}`);
        book.float -= load;
        book.loaded.set(cardId, load);
      } else if (answer.status !== 422 || load <= book.float) {
        this.unexpected('add card', answer, `load ${load}, float ${book.float}`);
      }
      return 1;
    }
    if (book.loaded.size === 0) return this.fund(actor, book, rng);
    const cardId = rng.pick([...book.loaded.keys()]);
    const amount = rng.next() < 0.1 ? book.float + rng.int(1, 500) : rng.int(1, Math.min(book.float, 1_500));
    const answer = await this.call('POST', `/att/cards/${encodeURIComponent(cardId)}/top-up`, actor.token, { amount });
    if (answer.status === 201) {
      if (amount > book.float) this.unexpected('top-up', answer, `accepted ${amount} with float ${book.float}`);
      book.float -= amount;
      book.loaded.set(cardId, book.loaded.get(cardId)! + amount);
    } else if (answer.status !== 422 || amount <= book.float) {
      this.unexpected('top-up', answer, `amount ${amount}, float ${book.float}`);
    }
    return 1;
  }

  /** The attendant asks for float and the manager approves it, sometimes for less than asked. */
  private async fund(actor: MoneyActor, book: AttendantBook, rng: Random): Promise<number> {
    const asked = rng.int(20, 100) * 100;
    const request = await this.call('POST', '/attendant/request-float', actor.token, { amount: asked });
    if (request.status !== 201) {
      this.unexpected('request-float', request, `amount ${asked}`);
      return 1;
    }
    const approved = asked - rng.int(0, 10) * 100;
    const answer = await this.call('POST', '/manager/assign-float', this.options.managerToken, {
      attendantId: actor.userId,
      amount: approved,
    });
    if (answer.status === 201) {
      book.approved += approved;
      book.float += approved;
    } else {
      this.unexpected('assign-float', answer, `amount ${approved}`);
    }
    return 2;
  }

  /** One money call, retried with the same Idempotency-Key until the server gives a real answer. */
  private async call(method: string, path: string, token: string, body: unknown): Promise<Answer> {
    const key = `${this.options.tag}-${++this.keyCounter}`;
    const deadline = Date.now() + ANSWER_DEADLINE_MS;
    for (;;) {
      try {
        const res = await fetch(`${this.options.baseUrl()}/api${path}`, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            [IDEMPOTENCY_KEY_HEADER]: key,
          },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(10_000),
        });
        const text = await res.text();
        if (res.status < 500 && res.status !== 429) {
          this.calls++;
          return { status: res.status, body: text ? JSON.parse(text) : undefined };
        }
      } catch {
        // refused, reset or timed out: the outcome is unknown, so ask again with the same key
      }
      if (Date.now() > deadline) {
        this.unanswered = true;
        this.violations.push(`${method} ${path}: no answer within ${ANSWER_DEADLINE_MS / 1000} s (key ${key})`);
        this.calls++;
        return { status: 0, body: undefined };
      }
      this.retries++;
      await sleep(200);
    }
  }

  private unexpected(what: string, answer: Answer, context: string): void {
    if (answer.status === 0) return; // already recorded as unanswered
    this.violations.push(`${what}: unexpected ${answer.status} ${JSON.stringify(answer.body)} (${context})`);
  }
}
