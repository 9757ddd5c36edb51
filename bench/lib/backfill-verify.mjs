// After the backfill benchmark: every sale sent is stored exactly once, each machine's seq runs 1…n
// without a hole (in SQL and as GET /machines/{espId}/sync shows it), and the rollups equal the rows.

/**
 * `expected` maps each machine's ESP ID to the number of sales it sent (seq 1…n) and the event ids;
 * resolves with `{ ok, problems, figures }`, where `problems` names the first few machines that fail.
 */
export async function verifyBackfill({ db, get, expected, resends = [], queueCounts }) {
  const problems = [];
  const espIds = [...expected.keys()];
  const rows = (
    await db.query(
      `SELECT esp_id AS "espId", count(*)::int AS n, count(DISTINCT seq)::int AS seqs,
              min(seq)::int AS "minSeq", max(seq)::int AS "maxSeq", count(DISTINCT event_id)::int AS events
       FROM sales WHERE esp_id = ANY($1) GROUP BY esp_id`,
      [espIds],
    )
  ).rows;
  const byMachine = new Map(rows.map((r) => [r.espId, r]));
  let storedOnce = true;
  let contiguous = true;
  for (const [espId, { count }] of expected) {
    const r = byMachine.get(espId) ?? { n: 0, seqs: 0, minSeq: null, maxSeq: null, events: 0 };
    if (r.n !== count || r.events !== count) {
      storedOnce = false;
      problems.push(`${espId}: ${r.n} rows, ${r.events} event ids, ${count} sent`);
    }
    if (r.seqs !== count || (count > 0 && (r.minSeq !== 1 || r.maxSeq !== count))) {
      contiguous = false;
      problems.push(`${espId}: seq ${r.minSeq}…${r.maxSeq} with ${r.seqs} distinct, 1…${count} sent`);
    }
  }
  // Every event id sent is among the rows (a count alone would accept a stranger in place of one lost).
  const sent = [...expected].flatMap(([espId, { eventIds }]) => eventIds.map((id) => [espId, id]));
  let found = 0;
  for (let i = 0; i < sent.length; i += 20_000) {
    const chunk = sent.slice(i, i + 20_000);
    const [{ n }] = (
      await db.query(
        `SELECT count(*)::int AS n FROM sales s JOIN unnest($1::text[], $2::text[]) AS t(esp_id, event_id)
         ON s.esp_id = t.esp_id AND s.event_id = t.event_id`,
        [chunk.map((c) => c[0]), chunk.map((c) => c[1])],
      )
    ).rows;
    found += n;
  }
  if (found !== sent.length) {
    storedOnce = false;
    problems.push(`${sent.length - found} of the ${sent.length} event ids sent are not stored`);
  }

  // A sale sent again because its sales/ack did not come: if the row stored was received after the
  // resend, the first copy (PUBACKed, so durable) was never stored, which would break the guarantee.
  let storedFromResend = 0;
  if (resends.length) {
    const [{ n }] = (
      await db.query(
        `SELECT count(*)::int AS n FROM sales s
         JOIN unnest($1::text[], $2::text[], $3::float8[]) AS r(esp_id, event_id, at)
           ON s.esp_id = r.esp_id AND s.event_id = r.event_id
         WHERE s.received_at >= to_timestamp(r.at / 1000)`,
        [resends.map((r) => r[0]), resends.map((r) => r[1]), resends.map((r) => r[2])],
      )
    ).rows;
    storedFromResend = n;
    // Late, not necessarily lost: the first copy may still have been waiting (a job retried with
    // backoff); a lost one shows as a failed job below.
    if (n) problems.push(`${n} sales were stored from their resend, before their PUBACKed first copy`);
  }

  const [seqState] = (
    await db.query(
      `SELECT (SELECT count(*)::int FROM machine_seq_gaps WHERE esp_id = ANY($1)) AS gaps,
              (SELECT coalesce(sum(reused_seqs), 0)::int FROM machine_seq_state WHERE esp_id = ANY($1)) AS reused,
              (SELECT coalesce(sum(restarts), 0)::int FROM machine_seq_state WHERE esp_id = ANY($1)) AS restarts`,
      [espIds],
    )
  ).rows;
  if (seqState.gaps || seqState.reused || seqState.restarts) {
    contiguous = false;
    problems.push(`seq state: ${seqState.gaps} gap rows, ${seqState.reused} reused, ${seqState.restarts} restarts`);
  }

  // The API's view of the same: GET /machines/{espId}/sync, 16 at a time.
  let syncClean = 0;
  for (let i = 0; i < espIds.length; i += 16) {
    const answers = await Promise.all(espIds.slice(i, i + 16).map((id) => get(`/machines/${id}/sync`)));
    answers.forEach((s, j) => {
      const espId = espIds[i + j];
      if (s.missing.length === 0 && s.lastSeq === expected.get(espId).count) syncClean++;
      else if (problems.length < 50) problems.push(`${espId}: sync ${JSON.stringify(s)}`);
    });
  }
  if (syncClean !== espIds.length) contiguous = false;

  const [totals] = (
    await db.query(
      `SELECT (SELECT count(*)::int FROM sales) AS sales,
              (SELECT coalesce(sum(sales_count), 0)::int FROM sales_daily) AS daily,
              (SELECT count(*)::int FROM dead_letters) AS "deadLetters"`,
    )
  ).rows;
  const rollupsEqual = totals.daily === totals.sales;
  if (!rollupsEqual) problems.push(`sales_daily counts ${totals.daily} sales, the table holds ${totals.sales}`);
  if (totals.deadLetters) problems.push(`${totals.deadLetters} dead letters`);

  // A job that used up its attempts holds PUBACKed sales that no worker will store.
  const queue = await queueCounts();
  if (queue.failed) problems.push(`${queue.failed} sales jobs failed for good`);

  return {
    ok: storedOnce && contiguous && rollupsEqual && totals.deadLetters === 0 && queue.failed === 0,
    problems: problems.slice(0, 20),
    figures: {
      'every sale stored exactly once': storedOnce,
      'seq contiguous on every machine (SQL and /sync: no missing range)': contiguous,
      'machines whose /sync shows lastSeq = sent and no missing range': `${syncClean} / ${espIds.length}`,
      'rollup count equals rows': rollupsEqual,
      'dead letters': totals.deadLetters,
      'sales sent again / stored from the resend': `${resends.length} / ${storedFromResend}`,
      'sales jobs failed for good': queue.failed,
    },
  };
}
