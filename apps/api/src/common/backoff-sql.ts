/**
 * The SQL for an outbox row's next attempt after a failed send (docs/alarms.md, "The outbox"): the first
 * delay (the query parameter `delayParam`, in milliseconds) doubling with each attempt already made, at
 * most 30 minutes, with ±20 % jitter so that rows failed together do not come back together.
 */
export const nextAttemptAfterFailure = (delayParam: string): string =>
  `now() + least(${delayParam}::float8 * power(2, greatest(attempts - 1, 0)), 1800000)
     * (0.8 + random() * 0.4) * interval '1 millisecond'`;
