// Versioned schema changes: plain numbered SQL files in ./migrations, applied in order by
// node-pg-migrate, the same files on PGlite and on a PostgreSQL server. Applied at start-up
// and by `billing migrate`; a failed migration throws and the process exits non-zero.
import { runner } from 'node-pg-migrate';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Db } from './db.ts';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations', import.meta.url));

export async function migrate(db: Db, log: (msg: string) => void = () => {}): Promise<string[]> {
  // One held connection: node-pg-migrate's advisory lock and its BEGIN/COMMIT are per session,
  // and through a pool they would land on different connections.
  const applied = await db.session((conn) =>
    runner({
      // node-pg-migrate wants a pg client; our Queryable has the only method it uses.
      dbClient: { query: (text: string, params?: unknown[]) => conn.query(text, params) } as never,
      dir: MIGRATIONS_DIR,
      direction: 'up',
      migrationsTable: 'schema_migrations',
      count: Infinity,
      // PGlite is one connection; a server uses the advisory lock so that replicas starting
      // together do not run the same migration twice. They wait for each other rather than fail.
      noLock: db.kind === 'pglite',
      advisoryLockMode: 'wait',
      log,
      logger: { info: log, warn: log, error: log, debug: () => {} },
    }),
  );
  return applied.map((m) => m.name);
}

/** The migrations shipped with this build, by the name schema_migrations records (file name without .sql). */
export const shippedMigrations = (): string[] =>
  readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith('.sql'))
    .map((f) => f.slice(0, -'.sql'.length))
    .sort();

/** Shipped migrations the database has not recorded as run; all of them when it never migrated. */
export async function pendingMigrations(db: Db, shipped: string[] = shippedMigrations()): Promise<string[]> {
  const exists = await db.query<{ t: string | null }>(`SELECT to_regclass('schema_migrations')::text AS t`);
  if (!exists.rows[0]?.t) return shipped;
  const { rows } = await db.query<{ name: string }>('SELECT name FROM schema_migrations');
  const applied = new Set(rows.map((r) => r.name));
  return shipped.filter((name) => !applied.has(name));
}
