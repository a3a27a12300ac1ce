// The service's whole configuration: one Zod schema over the environment, parsed once by main.ts
// and passed down. Code under test never reads process.env; tests call loadConfig with their own map.
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { z } from 'zod';
import type { DatabaseTarget } from './storage/db.ts';

/** `none`: production without DATABASE_URL. Routes that need the database answer 500 instead. */
export type DatabaseSetting = DatabaseTarget | { kind: 'none' };

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' });

// ── Merchant accounts and the HTTP edge (issue 11): every variable of that work in this block ──

/** A key-encryption key for stored signing keys; `id` is stored beside each ciphertext. */
export interface KeyEncryptionKey {
  id: string;
  key: Buffer;
}

const KEK_ID = /^[A-Za-z0-9_.-]{1,32}$/;
/** The id of a KEK given alone (plain base64): to rotate, list the new key first and this one as `default:<same base64>`. */
export const DEFAULT_KEK_ID = 'default';

function decodeKek(text: string): Buffer | undefined {
  const b64 = text.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) return undefined;
  const key = Buffer.from(b64, 'base64');
  return key.length === 32 ? key : undefined;
}

/** base64 of 32 bytes, or `id:base64,…` whose first entry encrypts and every entry decrypts. */
const kekList = z.string().transform((v, ctx): KeyEncryptionKey[] => {
  const entries = v.includes(':') ? v.split(',').map((e) => e.trim()) : [`${DEFAULT_KEK_ID}:${v}`];
  const out: KeyEncryptionKey[] = [];
  for (const entry of entries) {
    const at = entry.indexOf(':');
    const id = entry.slice(0, at);
    const key = decodeKek(entry.slice(at + 1));
    if (at < 1 || !KEK_ID.test(id) || !key || out.some((k) => k.id === id)) {
      ctx.addIssue({
        code: 'custom',
        message: 'must be base64 of 32 bytes, or id:base64,… with distinct ids of A-Za-z0-9_.- (the first encrypts)',
      });
      return z.NEVER;
    }
    out.push({ id, key });
  }
  return out;
});

/** A secret given by the operator: long enough that guessing it is hopeless, no spaces. */
const operatorSecret = z
  .string()
  .regex(/^[\x21-\x7e]{32,256}$/, 'must be 32 to 256 printable characters without spaces');

/**
 * TRUST_PROXY: the proxies whose X-Forwarded-For is believed (IPs, CIDRs, or proxy-addr's names
 * loopback, linklocal, uniquelocal). A hop count is not offered: it cannot check who is talking.
 */
const PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const trustProxy = z.string().transform((v, ctx): string[] => {
  const list = v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const valid =
    list.length > 0 &&
    list.every((a) => {
      if (PROXY_RANGES.has(a)) return true;
      const [ip, bits, extra] = a.split('/');
      const family = isIP(ip);
      return (
        family !== 0 &&
        extra === undefined &&
        (bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128)))
      );
    });
  if (!valid)
    ctx.addIssue({
      code: 'custom',
      message: 'must be proxy addresses (IP, CIDR, loopback, linklocal or uniquelocal), comma-separated',
    });
  return list;
});

const ACCOUNTS_ENV = {
  // open: the spec's flows work without a key (a key sent is still checked and scopes the request);
  // keys: every route but the probes, the docs and the public plan read needs one.
  AUTH_MODE: z.enum(['open', 'keys']).default('open'),
  ADMIN_API_KEY: operatorSecret.optional(),
  SIGNING_KEY_ENCRYPTION_KEY: kekList.optional(),
  // Signs listing cursors; replicas must share it. Unset: random per process (cursors die with it).
  CURSOR_SECRET: operatorSecret.optional(),
  TRUST_PROXY: trustProxy.optional(),
  // /metrics on its own port (not on PORT at all); METRICS_AUTH=operator asks for ADMIN_API_KEY.
  METRICS_PORT: int(1, 65535).optional(),
  METRICS_AUTH: z.enum(['none', 'operator']).optional(),
  // The whole request (headers and body) must arrive within HTTP_REQUEST_TIMEOUT_MS, the headers
  // within HTTP_HEADERS_TIMEOUT_MS; answering may take longer (a pull waits for its ledger).
  HTTP_REQUEST_TIMEOUT_MS: int(1_000, 600_000).default(30_000),
  HTTP_HEADERS_TIMEOUT_MS: int(1_000, 600_000).default(10_000),
  HTTP_MAX_CONNECTIONS: int(1, 1_000_000).default(1024),
};

export interface AccountsConfig {
  authMode: 'open' | 'keys';
  adminApiKey: string | undefined;
  /** undefined: signing keys cannot be stored (the store refuses). First entry encrypts. */
  signingKeyEncryptionKeys: KeyEncryptionKey[] | undefined;
  /** undefined: a random secret per process. */
  cursorSecret: string | undefined;
  /** false: the socket's address is the client (X-Forwarded-For ignored). */
  trustProxy: false | string[];
  /** port undefined = /metrics on the API port; requireOperatorKey = only with ADMIN_API_KEY. */
  metrics: { port: number | undefined; requireOperatorKey: boolean };
  http: { requestTimeoutMs: number; headersTimeoutMs: number; maxConnections: number };
}

type AccountsEnv = z.output<z.ZodObject<typeof ACCOUNTS_ENV>>;

function accountsConfig(e: AccountsEnv): AccountsConfig {
  return {
    authMode: e.AUTH_MODE,
    adminApiKey: e.ADMIN_API_KEY,
    signingKeyEncryptionKeys: e.SIGNING_KEY_ENCRYPTION_KEY,
    cursorSecret: e.CURSOR_SECRET,
    trustProxy: e.TRUST_PROXY ?? false,
    // In keys mode a /metrics on the API port is the operator's, unless said otherwise.
    metrics: {
      port: e.METRICS_PORT,
      requireOperatorKey:
        (e.METRICS_AUTH ?? (e.AUTH_MODE === 'keys' && !e.METRICS_PORT ? 'operator' : 'none')) === 'operator',
    },
    // Node refuses a headers timeout longer than the request timeout.
    http: {
      requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
      headersTimeoutMs: Math.min(e.HTTP_HEADERS_TIMEOUT_MS, e.HTTP_REQUEST_TIMEOUT_MS),
      maxConnections: e.HTTP_MAX_CONNECTIONS,
    },
  };
}
// ── end of the merchant accounts block ──

// ── Automatic collection with dunning (issue 12) ──
const bool = z.enum(['true', 'false']).transform((v) => v === 'true');
const COLLECTION_ENV = {
  // Default: on when a vault contract is configured (there is nothing to collect from without one).
  COLLECTOR_ENABLED: bool.optional(),
  // How often each replica looks for due work, and how many subscriptions it collects at once.
  COLLECTOR_INTERVAL_MS: int(100, 3_600_000).default(5_000),
  COLLECTOR_CONCURRENCY: int(1, 1_000).default(4),
  // Retry k comes this many seconds after failed try k (product.md's built-in default).
  DUNNING_SCHEDULE_SECONDS: z
    .string()
    .transform((v) => v.split(',').map((s) => s.trim()))
    .refine(
      (list) => list.length <= 20 && list.every((s) => /^[1-9]\d{0,7}$/.test(s) && Number(s) <= 31_536_000),
      'must be up to 20 comma-separated whole numbers of seconds, each 1 to 31536000',
    )
    .transform((list) => list.map(Number))
    .default([86_400, 259_200, 432_000, 604_800]),
  // How far ahead of the due date the health check warns.
  WARNING_LEAD_SECONDS: int(0, 31_536_000).default(259_200),
  // `ledger` (never in production): the service's clock follows the network's ledger time, so a
  // test or a demo on the local network lives through months of billing by moving ledger time.
  CLOCK: z.enum(['system', 'ledger']).default('system'),
};

export interface CollectionConfig {
  collector: { enabled: boolean; intervalMs: number; concurrency: number };
  dunningScheduleSeconds: number[];
  warningLeadSeconds: number;
  clock: 'system' | 'ledger';
}

type CollectionEnv = z.output<z.ZodObject<typeof COLLECTION_ENV>> & { CONTRACT_ID?: string; NODE_ENV: string };

function collectionConfig(e: CollectionEnv): CollectionConfig {
  if (e.CLOCK === 'ledger' && e.NODE_ENV === 'production')
    throw new ConfigError(
      'Invalid configuration:\n  CLOCK: ledger is a test clock and is refused when NODE_ENV=production',
    );
  return {
    collector: {
      enabled: e.COLLECTOR_ENABLED ?? e.CONTRACT_ID !== undefined,
      intervalMs: e.COLLECTOR_INTERVAL_MS,
      concurrency: e.COLLECTOR_CONCURRENCY,
    },
    dunningScheduleSeconds: e.DUNNING_SCHEDULE_SECONDS,
    warningLeadSeconds: e.WARNING_LEAD_SECONDS,
    clock: e.CLOCK,
  };
}
// ── end of the collection block ──

// ── Events, webhooks and Idempotency-Key (issue 13): every variable of that work in this block ──

const WEBHOOK_ENV = {
  // One delivery attempt (connect, send, answer) must finish within this, else it failed.
  WEBHOOK_TIMEOUT_MS: int(100, 120_000).default(10_000),
  // Retries: the first after WEBHOOK_RETRY_BASE_MS (±25 % jitter, so within 10 s at the default),
  // then doubling up to WEBHOOK_RETRY_MAX_DELAY_MS, for WEBHOOK_RETRY_FOR_MS after the event.
  WEBHOOK_RETRY_BASE_MS: int(10, 8_000).default(5_000),
  WEBHOOK_RETRY_MAX_DELAY_MS: int(10, 86_400_000).default(6 * 3_600_000),
  WEBHOOK_RETRY_FOR_MS: int(1_000, 30 * 86_400_000).default(3 * 86_400_000),
  // An endpoint whose every attempt has failed for this long is disabled, with the reason shown.
  WEBHOOK_DISABLE_AFTER_MS: int(1_000, 365 * 86_400_000).default(5 * 86_400_000),
  // How often each replica looks for due deliveries when idle, and how many it sends at once.
  WEBHOOK_POLL_INTERVAL_MS: int(10, 60_000).default(1_000),
  WEBHOOK_CONCURRENCY: int(1, 1_000).default(16),
};

export interface WebhooksConfig {
  webhooks: {
    timeoutMs: number;
    retryBaseMs: number;
    retryMaxDelayMs: number;
    retryForMs: number;
    disableAfterMs: number;
    pollIntervalMs: number;
    concurrency: number;
    /** Production: https only, no loopback/private targets (http and loopback allowed otherwise). */
    publicTargetsOnly: boolean;
  };
}

type WebhookEnv = z.output<z.ZodObject<typeof WEBHOOK_ENV>> & { NODE_ENV: string };

function webhooksConfig(e: WebhookEnv): WebhooksConfig {
  return {
    webhooks: {
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      retryBaseMs: e.WEBHOOK_RETRY_BASE_MS,
      retryMaxDelayMs: Math.max(e.WEBHOOK_RETRY_MAX_DELAY_MS, e.WEBHOOK_RETRY_BASE_MS),
      retryForMs: e.WEBHOOK_RETRY_FOR_MS,
      disableAfterMs: e.WEBHOOK_DISABLE_AFTER_MS,
      pollIntervalMs: e.WEBHOOK_POLL_INTERVAL_MS,
      concurrency: e.WEBHOOK_CONCURRENCY,
      publicTargetsOnly: e.NODE_ENV === 'production',
    },
  };
}
// ── end of the events and webhooks block ──

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
  FEE_SOURCE_SECRET: z
    .string()
    .regex(/^S[A-Z2-7]{55}$/, 'must be a Stellar secret seed (S followed by 55 base32 characters)')
    .optional(),
  // Each merchant's pulls run one at a time in a process (one sequence number): at most this many
  // wait, each at most this long, before /trigger-pull answers 500 chain_busy.
  MERCHANT_QUEUE_MAX: int(1, 100_000).default(100),
  MERCHANT_QUEUE_WAIT_MS: int(1, 3_600_000).default(60_000),
  // Client-side signing: how long a prepared pull waits for the merchant's signature (product.md: 5 minutes).
  PREPARED_PULL_TTL_SECONDS: int(10, 86_400).default(300),
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
    .transform((v) =>
      v
        .split(',')
        .map((o) => o.trim())
        .filter((o) => o !== ''),
    )
    .refine(
      (list) => list.every((o) => o === '*' || /^https?:\/\/[^/\s]+$/.test(o)),
      'must be * or origins like https://shop.example.com, comma-separated',
    )
    .optional(),
  ...ACCOUNTS_ENV,
  ...COLLECTION_ENV,
  ...WEBHOOK_ENV,
});

export interface Config extends AccountsConfig, CollectionConfig, WebhooksConfig {
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
  /** PREPARED_PULL_TTL_SECONDS. */
  preparedPullTtlSeconds: number;
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
    database: databaseSetting(
      e.DATABASE_URL,
      e.NODE_ENV,
      {
        poolSize: e.DB_POOL_SIZE,
        connectTimeoutMs: e.DB_CONNECT_TIMEOUT_MS,
        statementTimeoutMs: e.DB_STATEMENT_TIMEOUT_MS,
      },
      cwd,
    ),
    sorobanRpcUrl: e.SOROBAN_RPC_URL,
    networkPassphrase: e.STELLAR_NETWORK_PASSPHRASE,
    contractId: e.CONTRACT_ID,
    defaultTokenContractId: e.DEFAULT_TOKEN_CONTRACT_ID,
    rpcTimeoutMs: e.RPC_TIMEOUT_MS,
    maxInclusionFee: e.MAX_INCLUSION_FEE,
    feeSourceSecret: e.FEE_SOURCE_SECRET === undefined ? undefined : new SecretText(e.FEE_SOURCE_SECRET),
    merchantQueue: { maxQueued: e.MERCHANT_QUEUE_MAX, maxWaitMs: e.MERCHANT_QUEUE_WAIT_MS },
    txPollTimeoutMs: e.TX_POLL_TIMEOUT_MS,
    preparedPullTtlSeconds: e.PREPARED_PULL_TTL_SECONDS,
    txPollIntervalMs: e.TX_POLL_INTERVAL_MS,
    reconcileIntervalMs: e.RECONCILE_INTERVAL_MS,
    reconcileRoundLimitMs: e.RECONCILE_ROUND_LIMIT_MS,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    logLevel: e.LOG_LEVEL,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    rateLimit: e.RATE_LIMIT_MAX === undefined ? undefined : { max: e.RATE_LIMIT_MAX, windowMs: e.RATE_LIMIT_WINDOW_MS },
    corsOrigins: e.CORS_ORIGINS,
    ...accountsConfig(e),
    ...collectionConfig(e),
    ...webhooksConfig(e),
  };
}

type ServerOptions = Omit<Extract<DatabaseTarget, { kind: 'postgres' }>, 'kind' | 'url'>;

function databaseSetting(
  url: string | undefined,
  nodeEnv: Config['nodeEnv'],
  server: ServerOptions,
  cwd: string,
): DatabaseSetting {
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
