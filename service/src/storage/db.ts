// The one place that turns DATABASE_URL into a database handle. Everything above this file
// sees only `Db` / `Queryable`, so PGlite (embedded, in-memory) and a PostgreSQL server through
// a node-postgres pool are interchangeable and run the same SQL and migrations.
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { ReadCache, WriteWatch } from './read-cache.ts';

export interface QueryResult<R> {
  rows: R[];
  rowCount: number;
}

export interface Queryable {
  /** `name` makes node-postgres prepare the statement once per connection (ignored by PGlite). */
  query<R = Record<string, unknown>>(text: string, params?: unknown[], name?: string): Promise<QueryResult<R>>;
  /**
   * Only on the embedded database, where this process is the database's one writer: hot reads may
   * be answered from memory until the next write (read-cache.ts). Absent on PostgreSQL, whose other
   * replicas write behind our back.
   */
  readonly readCache?: ReadCache;
}

export interface Db extends Queryable {
  /** `none`: no database configured (see storage/unavailable-db.ts); every call fails. */
  readonly kind: 'pglite' | 'postgres' | 'none';
  /** Runs fn in one transaction on one connection; commits on return, rolls back on throw. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Runs fn on one connection held for its whole duration, without a transaction: for session
   * state such as advisory locks or a migrator's own BEGIN/COMMIT, which a pool would scatter.
   */
  session<T>(fn: (conn: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export type DatabaseTarget =
  | { kind: 'pglite'; dataDir: string | undefined } // undefined = in memory
  | { kind: 'postgres'; url: string; poolSize: number; connectTimeoutMs: number; statementTimeoutMs: number };

// NUMERIC and BIGINT come back as strings from node-postgres; PGlite parses them differently
// by default. Both are pinned to strings so that amounts stay exact and both drivers agree.
const NUMERIC_OID = 1700;
const INT8_OID = 20;
const INT4_ARRAY_OID = 1007;

/**
 * integer[] as PostgreSQL writes it ("{86400,259200}"): integers are never quoted, so a split does
 * what node-postgres' general array parser does at a fraction of its cost (it showed in the profile
 * of GET /plans/{id}, for the retry schedule). NULL elements stay null.
 */
export function parseIntArray(text: string): (number | null)[] {
  if (text === '{}') return [];
  return text
    .slice(1, -1)
    .split(',')
    .map((v) => (v === 'NULL' ? null : Number(v)));
}

export async function openDb(target: DatabaseTarget): Promise<Db> {
  return target.kind === 'pglite' ? openPglite(target.dataDir) : openPostgres(target);
}

async function openPglite(dataDir: string | undefined): Promise<Db> {
  const identity = (v: string) => v;
  const lite = await PGlite.create(dataDir, {
    parsers: { [NUMERIC_OID]: identity, [INT8_OID]: identity },
  });
  // PGlite's query() is the extended protocol: one statement only. Like node-postgres, a query
  // without parameters goes through the simple protocol (exec), so multi-statement SQL such as a
  // migration file works on both drivers; the last statement's result is returned.
  const writes = new WriteWatch();
  const readCache = new ReadCache(writes);
  const wrap = (q: { query: PGlite['query']; exec: PGlite['exec'] }): Queryable => ({
    readCache,
    async query(text, params) {
      if (params === undefined || params.length === 0) {
        const all = await q.exec(text);
        writes.saw(text, undefined);
        const last = all[all.length - 1] ?? { rows: [], affectedRows: 0 };
        return { rows: last.rows as never[], rowCount: last.affectedRows ?? last.rows.length };
      }
      const res = await q.query(text, params as unknown[]);
      writes.saw(text, res.affectedRows);
      return { rows: res.rows as never[], rowCount: res.affectedRows ?? res.rows.length };
    },
  });
  return {
    kind: 'pglite',
    ...wrap(lite),
    transaction: (fn) => lite.transaction((tx) => fn(wrap(tx))),
    // PGlite is a single connection already.
    session: (fn) => fn(wrap(lite)),
    close: () => lite.close(),
  };
}

/** Slack between the server's statement_timeout and the client's own wait for an answer. */
const QUERY_TIMEOUT_SLACK_MS = 2_000;

async function openPostgres(target: Extract<DatabaseTarget, { kind: 'postgres' }>): Promise<Db> {
  pg.types.setTypeParser(NUMERIC_OID, (v) => v);
  pg.types.setTypeParser(INT8_OID, (v) => v);
  pg.types.setTypeParser(INT4_ARRAY_OID as never, parseIntArray);
  const pool = new pg.Pool({
    connectionString: target.url,
    max: target.poolSize,
    // Connecting (TCP, TLS, authentication) may take this long; a black-holed host is an error,
    // not a hang. The server cancels a statement after statement_timeout; should the server itself
    // stop answering, the client gives up a little later (query_timeout).
    connectionTimeoutMillis: target.connectTimeoutMs,
    statement_timeout: target.statementTimeoutMs,
    query_timeout: target.statementTimeoutMs + QUERY_TIMEOUT_SLACK_MS,
  });
  // An idle client that loses its connection emits 'error'; without a listener it would crash the process.
  pool.on('error', () => {});
  const wrap = (c: pg.Pool | pg.PoolClient): Queryable => ({
    async query(text, params, name) {
      const out = await c.query(name ? { name, text, values: params } : { text, values: params });
      // Several statements without parameters (a migration file) give one result each: keep the last.
      const res = (Array.isArray(out) ? out[out.length - 1] : out) as pg.QueryResult;
      return { rows: res.rows, rowCount: res.rowCount ?? res.rows.length };
    },
  });
  return {
    kind: 'postgres',
    ...wrap(pool),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const out = await fn(wrap(client));
        await client.query('COMMIT');
        return out;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
    async session(fn) {
      const client = await pool.connect();
      try {
        return await fn(wrap(client));
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
