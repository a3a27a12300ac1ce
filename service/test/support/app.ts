// Builds the real app on a real database for a test file: in-memory PGlite or the PostgreSQL 15
// server started by global-setup.ts. Same composition as main.ts (loadConfig -> buildDeps ->
// migrate -> buildApp), only the environment, clock and log destination are the test's.
import { Writable } from 'node:stream';
import type { FastifyInstance, RouteOptions } from 'fastify';
import type { DestinationStream } from 'pino';
import { inject } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { buildDeps, closeDeps } from '../../src/deps.ts';
import type { Deps, DepsOverrides } from '../../src/deps.ts';
import { createLogger } from '../../src/logger.ts';
import { migrate } from '../../src/storage/migrate.ts';
import { testClock } from './clock.ts';
import type { TestClock } from './clock.ts';

export type Target = 'pglite' | 'postgres';
/** The database tests run once per target (describe.each(TARGETS)). */
export const TARGETS: Target[] = ['pglite', 'postgres'];

export interface TestApp {
  app: FastifyInstance;
  deps: Deps;
  clock: TestClock;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Extra environment; overrides what the target sets. */
  env?: Record<string, string | undefined>;
  /** Working directory for a relative ./data (embedded PGlite tests). */
  cwd?: string;
  clock?: TestClock;
  logDestination?: DestinationStream;
  /** Sees every route as it is registered (before ready), with its options (config.access…). */
  onRoute?: (route: RouteOptions) => void;
  /** Composition-root stand-ins (a scripted chain, a webhook sender). */
  overrides?: Omit<DepsOverrides, 'clock' | 'logger'>;
}

const discard = () => new Writable({ write: (_chunk, _enc, done) => done() });

export function envFor(target: Target): Record<string, string> {
  return { DATABASE_URL: target === 'pglite' ? 'memory://' : inject('pgUrl'), DB_POOL_SIZE: '4' };
}

export async function startApp(target: Target | null, options: TestAppOptions = {}): Promise<TestApp> {
  const env = {
    NODE_ENV: 'test',
    LOG_LEVEL: options.logDestination ? 'info' : 'silent',
    ...(target ? envFor(target) : {}),
    ...options.env,
  };
  const config = loadConfig(env, options.cwd);
  const clock = options.clock ?? testClock();
  const logger = createLogger({ level: config.logLevel, destination: options.logDestination ?? discard() });
  const deps = await buildDeps(config, { clock, logger, ...options.overrides });
  if (deps.db.kind !== 'none') await migrate(deps.db);
  const app = buildApp(deps);
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  await app.ready();
  return {
    app,
    deps,
    clock,
    async close() {
      await app.close();
      await closeDeps(deps);
    },
  };
}

/**
 * A database of its own on the test server, for suites that run a worker sweeping the whole
 * database: a delivery worker claims every due delivery (and would fail, under another key-
 * encryption key, those of suites beside it); a reconciler settles every pending attempt against
 * its own network (a scripted chain or another devnet would declare other suites' attempts
 * expired: a 202 test on the shared database once saw its attempt expired under it).
 */
export async function isolatedPgUrl(): Promise<string> {
  const base = inject('pgUrl');
  const name = `iso_${crypto.randomUUID().replaceAll('-', '')}`;
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

/** envFor, with a database of the suite's own on the server (see isolatedPgUrl). */
export async function isolatedEnvFor(target: Target): Promise<Record<string, string>> {
  return target === 'pglite' ? envFor(target) : { DATABASE_URL: await isolatedPgUrl(), DB_POOL_SIZE: '4' };
}
