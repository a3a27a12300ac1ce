// The PostgreSQL 15 server for the bench: the test harness's throw-away cluster under /tmp,
// started while this process is pinned to the load CPU, so PostgreSQL inherits that CPU.
// The test cluster runs with fsync off; the bench turns durability back on (every setting
// involved is reloadable) so that POST figures pay for a real commit, as in production.
import pg from 'pg';
import { startPostgres } from '../test/support/pg-server.ts';
import { onCleanup } from './procs.ts';

export interface BenchPg {
  url: string;
  version: string;
  durable: boolean;
  sql<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
}

export async function startBenchPg(durable = true): Promise<BenchPg> {
  const server = await startPostgres({ maxConnections: 200 });
  onCleanup(() => server.stop());
  const pool = new pg.Pool({ connectionString: server.url, max: 2 });
  pool.on('error', () => {});
  onCleanup(() => pool.end());
  const sql = async <R>(text: string, params?: unknown[]) => (await pool.query(text, params)).rows as R[];
  if (durable) {
    await sql(`ALTER SYSTEM SET fsync = on`);
    await sql(`ALTER SYSTEM SET synchronous_commit = on`);
    await sql(`ALTER SYSTEM SET full_page_writes = on`);
    await sql(`SELECT pg_reload_conf()`);
  }
  const [{ server_version }] = await sql<{ server_version: string }>(`SHOW server_version`);
  return { url: server.url, version: server_version, durable, sql };
}
