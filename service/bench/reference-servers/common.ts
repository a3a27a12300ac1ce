// Shared by the reference servers: the same environment contract as the service (PORT, HOST,
// DATABASE_URL), the same pool size (10) and type parsing, and the same single-row select of
// a plan by primary key. They are comparison points for the bench only, never shipped code.
import pg from 'pg';

export const PORT = Number(process.env.PORT ?? 3100);
export const HOST = process.env.HOST ?? '127.0.0.1';
export const POOL_SIZE = Number(process.env.POOL_SIZE ?? 10);

// A path id is checked before the query, as the service must do (400 on a malformed id).
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const PLAN_COLUMNS = 'id, merchant_id, name, token_amount, interval_seconds, created_at';
export const SELECT_PLAN = `SELECT ${PLAN_COLUMNS} FROM plans WHERE id = $1`;

export function pool(): pg.Pool {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is required');
  // NUMERIC and BIGINT as strings, as the service's storage layer does.
  pg.types.setTypeParser(1700, (v) => v);
  pg.types.setTypeParser(20, (v) => v);
  const p = new pg.Pool({ connectionString: url, max: POOL_SIZE });
  p.on('error', () => {});
  return p;
}

/** The service returns token_amount as a JSON number; so do we. */
export function planJson(row: Record<string, unknown>): Record<string, unknown> {
  return { ...row, token_amount: Number(row.token_amount) };
}

export function stopOnSignal(close: () => Promise<unknown>): void {
  for (const sig of ['SIGTERM', 'SIGINT'] as const) {
    process.on(sig, () => {
      void close().finally(() => process.exit(0));
    });
  }
}
