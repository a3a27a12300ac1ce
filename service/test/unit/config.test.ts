// loadConfig: defaults of product.md, the three DATABASE_URL forms, and start-up errors that say what is wrong.
import { describe, expect, it } from 'vitest';
import { ConfigError, describeDatabase, loadConfig } from '../../src/config.ts';

describe('loadConfig', () => {
  it('defaults', () => {
    expect(loadConfig({}, '/srv/app')).toEqual({
      nodeEnv: 'development',
      port: 3001,
      host: '0.0.0.0',
      database: { kind: 'pglite', dataDir: '/srv/app/data' },
      sorobanRpcUrl: 'https://soroban-testnet.stellar.org',
      networkPassphrase: 'Test SDF Network ; September 2015',
      contractId: undefined,
      defaultTokenContractId: undefined,
      rpcTimeoutMs: 10_000,
      maxInclusionFee: 100_000,
      feeSourceSecret: undefined,
      collector: { enabled: false, intervalMs: 5_000, concurrency: 4 },
      dunningScheduleSeconds: [86_400, 259_200, 432_000, 604_800],
      warningLeadSeconds: 259_200,
      clock: 'system',
      merchantQueue: { maxQueued: 100, maxWaitMs: 60_000 },
      txPollTimeoutMs: 30_000,
      preparedPullTtlSeconds: 300,
      txPollIntervalMs: 1_000,
      reconcileIntervalMs: 15_000,
      reconcileRoundLimitMs: 60_000,
      shutdownTimeoutMs: 45_000,
      logLevel: 'info',
      bodyLimitBytes: 65_536,
      rateLimit: undefined,
      corsOrigins: undefined,
      authMode: 'open',
      adminApiKey: undefined,
      signingKeyEncryptionKeys: undefined,
      cursorSecret: undefined,
      trustProxy: false,
      metrics: { port: undefined, requireOperatorKey: false },
      http: { requestTimeoutMs: 30_000, headersTimeoutMs: 10_000, maxConnections: 1024 },
      webhooks: {
        timeoutMs: 10_000,
        retryBaseMs: 5_000,
        retryMaxDelayMs: 21_600_000,
        retryForMs: 259_200_000,
        disableAfterMs: 432_000_000,
        pollIntervalMs: 1_000,
        concurrency: 16,
        publicTargetsOnly: false,
      },
    });
  });

  it('DATABASE_URL: memory:// and postgres:// / postgresql:// with DB_POOL_SIZE', () => {
    expect(loadConfig({ DATABASE_URL: 'memory://' }).database).toEqual({ kind: 'pglite', dataDir: undefined });
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/billing', DB_POOL_SIZE: '20' }).database).toEqual({
      kind: 'postgres',
      url: 'postgres://u:p@db:5432/billing',
      poolSize: 20,
      connectTimeoutMs: 5_000,
      statementTimeoutMs: 30_000,
    });
    expect(
      loadConfig({ DATABASE_URL: 'postgres://db/b', DB_CONNECT_TIMEOUT_MS: '700', DB_STATEMENT_TIMEOUT_MS: '900' })
        .database,
    ).toMatchObject({
      connectTimeoutMs: 700,
      statementTimeoutMs: 900,
    });
    expect(loadConfig({ DATABASE_URL: 'postgresql://db/billing' }).database.kind).toBe('postgres');
  });

  it('production without DATABASE_URL: no database, never the embedded one', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).database).toEqual({ kind: 'none' });
    expect(loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'memory://' }).database.kind).toBe('pglite');
  });

  it('reads every variable', () => {
    const c = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      SOROBAN_RPC_URL: 'http://127.0.0.1:8000/rpc',
      STELLAR_NETWORK_PASSPHRASE: 'Standalone Network ; February 2017',
      CONTRACT_ID: 'CA3D5KRYM6CB7OWQ6TWYRR3Z4T7GNZLKERYNZGGA5SOAOPIFY6YQGAXE',
      TX_POLL_TIMEOUT_MS: '5000',
      TX_POLL_INTERVAL_MS: '250',
      LOG_LEVEL: 'debug',
      BODY_LIMIT_BYTES: '1048576',
    });
    expect(c).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      sorobanRpcUrl: 'http://127.0.0.1:8000/rpc',
      networkPassphrase: 'Standalone Network ; February 2017',
      contractId: 'CA3D5KRYM6CB7OWQ6TWYRR3Z4T7GNZLKERYNZGGA5SOAOPIFY6YQGAXE',
      txPollTimeoutMs: 5000,
      txPollIntervalMs: 250,
      logLevel: 'debug',
      bodyLimitBytes: 1_048_576,
    });
  });

  it('an empty value means unset', () => {
    expect(loadConfig({ CONTRACT_ID: '', PORT: '' })).toMatchObject({ contractId: undefined, port: 3001 });
  });

  it('lists every bad variable with its reason', () => {
    const bad = () =>
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        SOROBAN_RPC_URL: 'ftp://x',
        CONTRACT_ID: 'GABC',
        LOG_LEVEL: 'loud',
      });
    expect(bad).toThrow(ConfigError);
    const message = (() => {
      try {
        bad();
      } catch (err) {
        return (err as Error).message;
      }
    })();
    expect(message).toMatch(/^Invalid configuration:/);
    expect(message).toContain('PORT: Invalid input: expected number, received NaN');
    expect(message).toContain('DATABASE_URL: must be memory:// or a postgres:// URL');
    expect(message).toContain('SOROBAN_RPC_URL: must be an http:// or https:// URL');
    expect(message).toContain('CONTRACT_ID: must be a contract id');
    expect(message).toContain('LOG_LEVEL:');
  });

  it('describeDatabase never prints a password', () => {
    expect(
      describeDatabase({
        kind: 'postgres',
        url: 'postgres://u:secret@db:5432/billing',
        poolSize: 10,
        connectTimeoutMs: 1,
        statementTimeoutMs: 1,
      }),
    ).toBe('PostgreSQL at db:5432/billing');
    expect(describeDatabase({ kind: 'pglite', dataDir: undefined })).toBe('in-memory PGlite');
  });
  it('merchant accounts: AUTH_MODE, ADMIN_API_KEY, SIGNING_KEY_ENCRYPTION_KEY in both forms, CURSOR_SECRET', () => {
    const k1 = Buffer.alloc(32, 1).toString('base64');
    const k2 = Buffer.alloc(32, 2).toString('base64');
    const plain = loadConfig({
      AUTH_MODE: 'keys',
      ADMIN_API_KEY: 'a'.repeat(32),
      SIGNING_KEY_ENCRYPTION_KEY: k1,
      CURSOR_SECRET: 'c'.repeat(40),
    });
    expect(plain).toMatchObject({ authMode: 'keys', adminApiKey: 'a'.repeat(32), cursorSecret: 'c'.repeat(40) });
    expect(plain.signingKeyEncryptionKeys).toEqual([{ id: 'default', key: Buffer.alloc(32, 1) }]);
    const list = loadConfig({ SIGNING_KEY_ENCRYPTION_KEY: `2026-11:${k2}, default:${k1}` }).signingKeyEncryptionKeys;
    expect(list?.map((k) => k.id)).toEqual(['2026-11', 'default']);
    const message = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (err) {
        return (err as Error).message;
      }
      return '';
    };
    expect(message({ SIGNING_KEY_ENCRYPTION_KEY: Buffer.alloc(16).toString('base64') })).toContain(
      'SIGNING_KEY_ENCRYPTION_KEY: must be base64 of 32 bytes',
    );
    expect(message({ SIGNING_KEY_ENCRYPTION_KEY: `a:${k1},a:${k2}` })).toContain('SIGNING_KEY_ENCRYPTION_KEY');
    expect(message({ SIGNING_KEY_ENCRYPTION_KEY: `:${k1}` })).toContain('SIGNING_KEY_ENCRYPTION_KEY');
    expect(message({ ADMIN_API_KEY: 'short' })).toContain('ADMIN_API_KEY: must be 32 to 256 printable characters');
    expect(message({ AUTH_MODE: 'closed' })).toContain('AUTH_MODE');
  });

  it('HTTP edge: timeouts, connection cap, trusted proxies, metrics exposure', () => {
    expect(
      loadConfig({ HTTP_REQUEST_TIMEOUT_MS: '5000', HTTP_HEADERS_TIMEOUT_MS: '8000', HTTP_MAX_CONNECTIONS: '10' }).http,
    ).toEqual({
      requestTimeoutMs: 5000,
      headersTimeoutMs: 5000, // never longer than the whole request may take
      maxConnections: 10,
    });
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.1.0.0/16, ::1, loopback' }).trustProxy).toEqual([
      '10.0.0.1',
      '10.1.0.0/16',
      '::1',
      'loopback',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: '2' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY/);
    // /metrics: the operator's by default in keys mode on the API port, open on its own port.
    expect(loadConfig({ AUTH_MODE: 'keys' }).metrics).toEqual({ port: undefined, requireOperatorKey: true });
    expect(loadConfig({ AUTH_MODE: 'keys', METRICS_PORT: '9464' }).metrics).toEqual({
      port: 9464,
      requireOperatorKey: false,
    });
    expect(loadConfig({ METRICS_AUTH: 'operator' }).metrics.requireOperatorKey).toBe(true);
  });
});
