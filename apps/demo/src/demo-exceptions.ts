import { Logger } from '@nestjs/common';
import { DEMO_CARDS } from './demo-money.js';

/** The card the demo overdraws on purpose: registered with less than one sale's price. */
export const OVERDRAWN_CARD = DEMO_CARDS[DEMO_CARDS.length - 1]!;
const LOST_CARD = 'LOST-CARD-077';

/**
 * Two sales an operator meets in the field, made on purpose so the screens show them
 * (docs/operations.md, "Demo data"): a card this system never registered (a card from another
 * vendor, or one read wrong), flagged `unknown_card`, and a sale past a card's balance, flagged
 * `overdrawn`. Both come over REST as an older machine sends them; machines that check their card list
 * refuse such cards before the water runs, so only these two exist. Their fixed event ids make a second
 * demo start store nothing twice.
 */
export async function seedDemoExceptions(
  baseUrl: string,
  machine: { espId: string; deviceKey: string },
): Promise<void> {
  const time = new Date(Date.now() - 20 * 60_000).toISOString();
  const sale = (eventId: string, cardId: string, price: number) => ({
    eventId,
    kind: 'card',
    cardId,
    price,
    volume: price / 40,
    waterType: 'pure',
    time,
  });
  const res = await fetch(`${baseUrl}/api/machines/${encodeURIComponent(machine.espId)}/sales`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-device-key': machine.deviceKey },
    body: JSON.stringify([
      sale('demo-exception-unknown', LOST_CARD, 200),
      sale('demo-exception-overdraft', OVERDRAWN_CARD, 800),
    ]),
  });
  if (res.status !== 202) throw new Error(`demo sales on purpose: ${res.status} ${await res.text()}`);
  new Logger('Demo').log(
    `A sale on an unknown card (${LOST_CARD}) and one past ${OVERDRAWN_CARD}'s balance, on purpose`,
  );
}
