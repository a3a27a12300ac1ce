// Keyset pagination in SQL, shared by every listing: `(sort, id) > (cursor)` in the ORDER BY's
// own terms, so a B-tree index on (scope..., sort, id) answers a page with one range scan and
// rows inserted between two pages can neither shift nor repeat what the client already saw
// (OFFSET would do both). One extra row is fetched to know whether another page exists.
import type { Page, PageKey, PageRequest } from '../../billing/paging.ts';
import type { Queryable } from '../db.ts';

/** The sort column as text with microseconds in UTC: exactly what `$n::timestamptz` reads back. */
export const sortText = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

export interface KeysetQuery {
  /** e.g. "id, name FROM plans" — the select list and FROM clause, without WHERE. */
  from: string;
  /** Conditions already numbered $1..$n with their values in `params`. */
  where: string[];
  params: unknown[];
  sort: string;
  /** Prepared-statement name; must change whenever the SQL text does. */
  name: string;
}

export async function keysetPage<R extends { sort_at: string; id: string }>(
  db: Queryable,
  q: KeysetQuery,
  page: PageRequest,
): Promise<Page<Omit<R, 'sort_at'>>> {
  const where = [...q.where];
  const params = [...q.params];
  if (page.after) {
    params.push(page.after.at, page.after.id);
    where.push(`(${q.sort}, id) > ($${params.length - 1}::timestamptz, $${params.length}::uuid)`);
  }
  params.push(page.limit + 1);
  const sql = `SELECT ${sortText(q.sort)} AS sort_at, ${q.from}
    ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
    ORDER BY ${q.sort}, id LIMIT $${params.length}`;
  const { rows } = await db.query<R>(sql, params, `${q.name}${page.after ? '_after' : ''}`);
  const more = rows.length > page.limit;
  const kept = more ? rows.slice(0, page.limit) : rows;
  const last = kept[kept.length - 1];
  const next: PageKey | null = more ? { at: last.sort_at, id: last.id } : null;
  return { items: kept.map(({ sort_at: _s, ...item }) => item), next };
}
