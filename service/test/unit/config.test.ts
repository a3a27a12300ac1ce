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
      txPollTimeoutMs: 30_000,
      txPollIntervalMs: 1_000,
      reconcileIntervalMs: 15_000,
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
    });
  });

  it('DATABASE_URL: memory:// and postgres:// / postgresql:// with DB_POOL_SIZE', () => {
    expect(loadConfig({ DATABASE_URL: 'memory://' }).database).toEqual({ kind: 'pglite', dataDir: undefined });
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/billing', DB_POOL_SIZE: '20' }).database).toEqual({
      kind: 'postgres',
      url: 'postgres://u:p@db:5432/billing',
      poolSize: 20,
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
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', SOROBAN_RPC_URL: 'ftp://x', CONTRACT_ID: 'GABC', LOG_LEVEL: 'loud' });
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
    expect(describeDatabase({ kind: 'postgres', url: 'postgres://u:secret@db:5432/billing', poolSize: 10 })).toBe(
      'PostgreSQL at db:5432/billing',
    );
    expect(describeDatabase({ kind: 'pglite', dataDir: undefined })).toBe('in-memory PGlite');
  });
});
