// Counts for the metrics scrape. `status = 'pending'` matches the partial index pulls_pending, so
// the count reads only the (small) set of attempts in flight, however long the history grows.
import type { Queryable } from '../db.ts';

export async function countPendingPulls(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pulls WHERE status = 'pending'`,
    [],
    'pulls_count_pending',
  );
  return rows[0].n;
}
