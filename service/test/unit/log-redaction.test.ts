// No log line holds a secret: the merchant_secret key is censored at any depth, Stellar secret
// seeds are masked inside any string or error, and error paths of the HTTP layer log no bodies.
import { Writable } from 'node:stream';
import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.ts';
import { startApp } from '../support/app.ts';
import type { TestApp } from '../support/app.ts';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { stream, text: () => lines.join('') };
}

const seed = Keypair.random().secret();

describe('logger and API keys', () => {
  it('masks API keys in any string and censors the api_key, secret and authorization fields', () => {
    const out = capture();
    const log = createLogger({ level: 'info', destination: out.stream });
    const key = `bk_${'A1b2'.repeat(10)}xyz`;
    log.info({ api_key: key, secret: seed, headers: { authorization: `Bearer ${key}` } }, `created ${key}`);
    log.error({ err: new Error(`key ${key} refused`) }, 'boom');
    expect(out.text()).not.toContain(key);
    expect(out.text()).not.toContain(seed);
    expect(out.text()).toContain('[REDACTED]');
  });
});

describe('logger', () => {
  it('censors merchant_secret and masks seeds in messages, nested values and errors', () => {
    const out = capture();
    const log = createLogger({ level: 'info', destination: out.stream });
    log.info({ merchant_secret: seed, nested: { merchant_secret: seed, note: `key ${seed}` } }, `msg with ${seed}`);
    log.error({ err: new Error(`signing with ${seed} failed`) }, 'boom');
    log.warn(`plain ${seed}`);
    expect(out.text()).not.toContain(seed);
    expect(out.text()).toContain('[REDACTED]');
    expect(out.text()).toContain('signing with [REDACTED] failed');
  });

  it('leaves errors without seeds intact (type and stack)', () => {
    const out = capture();
    createLogger({ level: 'info', destination: out.stream }).error({ err: new TypeError('plain') }, 'x');
    const line = JSON.parse(out.text());
    expect(line.err).toMatchObject({ type: 'TypeError', message: 'plain' });
  });
});

describe('HTTP logs', () => {
  const out = capture();
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp('pglite', { logDestination: out.stream });
  });
  afterAll(() => t.close());

  it('log one line per request without body or query string, even on errors', async () => {
    await t.app.inject({
      method: 'POST',
      url: `/plans?merchant_secret=${seed}`,
      payload: { merchant_secret: seed, name: seed },
    });
    await t.app.inject({
      method: 'POST',
      url: '/merchants',
      headers: { 'content-type': 'application/json' },
      payload: `{"merchant_secret": "${seed}", `,
    });
    await t.app.inject({ method: 'GET', url: `/nowhere/${seed}` });
    // A 500 (foreign key) goes to the log with its message, still without the body.
    await t.app.inject({
      method: 'POST',
      url: '/plans',
      payload: {
        merchant_id: crypto.randomUUID(),
        name: seed,
        token_amount: 1,
        interval_seconds: 1,
        merchant_secret: seed,
      },
    });
    const text = out.text();
    expect(text).toContain('request completed');
    expect(text).toContain('plans_merchant_id_fkey');
    expect(text).not.toContain(seed);
  });
});
