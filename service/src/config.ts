// The service's whole configuration: one Zod schema over the environment, parsed once by main.ts
// and passed down. Code under test never reads process.env; tests call loadConfig with their own map.
import { resolve } from 'node:path';
import { z } from 'zod';
import type { DatabaseTarget } from './storage/db.ts';

/** `none`: production without DATABASE_URL. Routes that need the database answer 500 instead. */
export type DatabaseSetting = DatabaseTarget | { kind: 'none' };

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' });

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: int(0, 65535).default(3001),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .refine((v) => v === 'memory://' || /^postgres(ql)?:\/\/./.test(v), 'must be memory:// or a postgres:// URL')
    .optional(),
  DB_POOL_SIZE: int(1, 1000).default(10),
  // Time limits on the database server (ignored by the embedded PGlite, which has no connection):
  // connecting (a black-holed host fails start-up with a message instead of hanging), and each
  // statement (server-side statement_timeout plus a client-side limit on the answer).
  DB_CONNECT_TIMEOUT_MS: int(100, 600_000).default(5_000),
  DB_STATEMENT_TIMEOUT_MS: int(100, 3_600_000).default(30_000),
  SOROBAN_RPC_URL: httpUrl.default('https://soroban-testnet.stellar.org'),
  STELLAR_NETWORK_PASSPHRASE: z.string().min(1).default('Test SDF Network ; September 2015'),
  // Shape only (C + 55 base32 characters); the chain rejects a wrong checksum. Unset is a valid
  // state: /trigger-pull reports it with the spec's message instead of the service refusing to start.
  CONTRACT_ID: z
    .string()
    .regex(/^C[A-Z2-7]{55}$/, 'must be a contract id (C followed by 55 base32 characters)')
    .optional(),
  // The token a plan is priced in when POST /plans names none; unset = such plans name no token.
  DEFAULT_TOKEN_CONTRACT_ID: z
    .string()
    .regex(/^C[A-Z2-7]{55}$/, 'must be a contract id (C followed by 55 base32 characters)')
    .optional(),
  // Time limit of every Soroban RPC call.
  RPC_TIMEOUT_MS: int(100, 600_000).default(10_000),
  // Highest inclusion fee (stroops) a pull bids; above it the pull is refused as fee_too_high. The
  // resource fee (from simulation) comes on top and is not capped by it.
  MAX_INCLUSION_FEE: int(100, 1_000_000_000).default(100_000),
  // A Stellar secret seed whose account pays every pull's fee through a fee-bump envelope, so
  // merchants' accounts need no XLM for fees. Unset: the merchant's account pays.
  FEE_SOURCE_SECRET: z.string().regex(/^S[A-Z2-7]{55}$/, 'must be a Stellar secret seed (S followed by 55 base32 characters)').optional(),
  // Each merchant's pulls run one at a time in a process (one sequence number): at most this many
  // wait, each at most this long, before /trigger-pull answers 500 chain_busy.
  MERCHANT_QUEUE_MAX: int(1, 100_000).default(100),
  MERCHANT_QUEUE_WAIT_MS: int(1, 3_600_000).default(60_000),
  TX_POLL_TIMEOUT_MS: int(1, 600_000).default(30_000),
  TX_POLL_INTERVAL_MS: int(1, 60_000).default(1_000),
  // How often pending pull attempts (202s, crashes) are resolved against the network; 0 = only at start-up.
  RECONCILE_INTERVAL_MS: int(0, 3_600_000).default(15_000),
  // A reconciler round takes no new attempt after this long; the rest waits for the next round.
  RECONCILE_ROUND_LIMIT_MS: int(100, 3_600_000).default(60_000),
  // Longest a SIGTERM waits for requests in flight (pulls being polled) before exiting anyway;
  // a pull cut off here stays pending in the database and the next start resolves it.
  SHUTDOWN_TIMEOUT_MS: int(0, 600_000).default(45_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BODY_LIMIT_BYTES: int(1024, 50 * 1024 * 1024).default(65_536),
  // Per-client (IP) request limit; unset = no limit. Probes (/health, /ready, /metrics) are exempt.
  RATE_LIMIT_MAX: int(1, 1_000_000_000).optional(),
  RATE_LIMIT_WINDOW_MS: int(1, 86_400_000).default(60_000),
  // Browser origins allowed by CORS, comma-separated (`*` = any); unset = no CORS headers at all.
  CORS_ORIGINS: z
    .string()
    .transform((v) => v.split(',').map((o) => o.trim()).filter((o) => o !== ''))
    .refine((list) => list.every((o) => o === '*' || /^https?:\/\/[^/\s]+$/.test(o)), 'must be * or origins like https://shop.example.com, comma-separated')
    .optional(),
});

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  database: DatabaseSetting;
  sorobanRpcUrl: string;
  networkPassphrase: string;
  /** undefined until a vault contract is deployed and configured. */
  contractId: string | undefined;
  defaultTokenContractId: string | undefined;
  rpcTimeoutMs: number;
  maxInclusionFee: number;
  /** The fee-bump payer's secret, held so that printing the config never shows it. */
  feeSourceSecret: SecretText | undefined;
  merchantQueue: { maxQueued: number; maxWaitMs: number };
  txPollTimeoutMs: number;
  txPollIntervalMs: number;
  reconcileIntervalMs: number;
  reconcileRoundLimitMs: number;
  shutdownTimeoutMs: number;
  logLevel: string;
  bodyLimitBytes: number;
  /** undefined = no rate limit (the default). */
  rateLimit: { max: number; windowMs: number } | undefined;
  /** undefined = CORS off; ['*'] = any origin. */
  corsOrigins: string[] | undefined;
}

/** A secret from the environment: readable on purpose (reveal), never by logging or JSON. */
export class SecretText {
  readonly #value: string;
  constructor(value: string) {
    this.#value = value;
  }
  reveal(): string {
    return this.#value;
  }
  toJSON(): string {
    return '[REDACTED]';
  }
  toString(): string {
    return '[REDACTED]';
  }
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return '[REDACTED]';
  }
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Throws ConfigError listing every bad variable, one per line, so start-up fails with all of them at once. */
export function loadConfig(env: Record<string, string | undefined>, cwd: string = process.cwd()): Config {
  // `FOO=` in an env file means "not set", not "set to the empty string".
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    database: databaseSetting(e.DATABASE_URL, e.NODE_ENV, { poolSize: e.DB_POOL_SIZE, connectTimeoutMs: e.DB_CONNECT_TIMEOUT_MS, statementTimeoutMs: e.DB_STATEMENT_TIMEOUT_MS }, cwd),
    sorobanRpcUrl: e.SOROBAN_RPC_URL,
    networkPassphrase: e.STELLAR_NETWORK_PASSPHRASE,
    contractId: e.CONTRACT_ID,
    defaultTokenContractId: e.DEFAULT_TOKEN_CONTRACT_ID,
    rpcTimeoutMs: e.RPC_TIMEOUT_MS,
    maxInclusionFee: e.MAX_INCLUSION_FEE,
    feeSourceSecret: e.FEE_SOURCE_SECRET === undefined ? undefined : new SecretText(e.FEE_SOURCE_SECRET),
    merchantQueue: { maxQueued: e.MERCHANT_QUEUE_MAX, maxWaitMs: e.MERCHANT_QUEUE_WAIT_MS },
    txPollTimeoutMs: e.TX_POLL_TIMEOUT_MS,
    txPollIntervalMs: e.TX_POLL_INTERVAL_MS,
    reconcileIntervalMs: e.RECONCILE_INTERVAL_MS,
    reconcileRoundLimitMs: e.RECONCILE_ROUND_LIMIT_MS,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    logLevel: e.LOG_LEVEL,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    rateLimit: e.RATE_LIMIT_MAX === undefined ? undefined : { max: e.RATE_LIMIT_MAX, windowMs: e.RATE_LIMIT_WINDOW_MS },
    corsOrigins: e.CORS_ORIGINS,
  };
}

type ServerOptions = Omit<Extract<DatabaseTarget, { kind: 'postgres' }>, 'kind' | 'url'>;

function databaseSetting(url: string | undefined, nodeEnv: Config['nodeEnv'], server: ServerOptions, cwd: string): DatabaseSetting {
  if (url === 'memory://') return { kind: 'pglite', dataDir: undefined };
  if (url !== undefined) return { kind: 'postgres', url, ...server };
  // Production billing data must never land silently in a local file: no URL means no database.
  if (nodeEnv === 'production') return { kind: 'none' };
  return { kind: 'pglite', dataDir: resolve(cwd, 'data') };
}

/** Where the data lives, for the start-up log line; never prints a password. */
export function describeDatabase(db: DatabaseSetting): string {
  if (db.kind === 'none') return 'none (NODE_ENV=production without DATABASE_URL)';
  if (db.kind === 'pglite') return db.dataDir ? `embedded PGlite in ${db.dataDir}` : 'in-memory PGlite';
  const u = new URL(db.url);
  return `PostgreSQL at ${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname}`;
}
