// A merchant_secret sent to /trigger-pull reaches no log line, no response and no database row,
// on the success path and on every error path that sees it (wrong account, chain failures).
import { Writable } from 'node:stream';
import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.ts';
import { startDevnet, type Devnet } from '../support/devnet.ts';
import { chainEnv, setUpPull, triggerPull } from '../support/pull-fixture.ts';

describe('merchant_secret never leaves the request', () => {
  let devnet: Devnet;
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    devnet = await startDevnet({ ledgerMs: 1000 });
    const stream = new Writable({
      write: (chunk, _enc, done) => {
        lines.push(String(chunk));
        done();
      },
    });
    t = await startApp('pglite', { env: { ...chainEnv(devnet), LOG_LEVEL: 'trace' }, logDestination: stream });
  });
  afterAll(async () => {
    await t?.close();
    await devnet?.stop();
  });

  it('is absent from logs, answers and the database after success and failures', async () => {
    const s = await setUpPull(t, devnet);
    const missing = await setUpPull(t, devnet, { withoutVault: true, merchant: s.merchant, merchantId: s.merchantId });
    const stranger = Keypair.random().secret();
    const answers = [
      await triggerPull(t, s.subscriptionId, s.merchant.secret()),
      await triggerPull(t, s.subscriptionId, s.merchant.secret()), // too early
      await triggerPull(t, missing.subscriptionId, s.merchant.secret()), // vault missing
      await triggerPull(t, s.subscriptionId, stranger), // 401
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 500, 500, 401]);
    await new Promise((r) => setTimeout(r, 400)); // the logger flushes every 250 ms
    const rows = await t.deps.db.query('SELECT * FROM pulls');
    for (const secret of [s.merchant.secret(), stranger]) {
      expect(lines.join('')).not.toContain(secret);
      expect(JSON.stringify(answers)).not.toContain(secret);
      expect(JSON.stringify(rows.rows)).not.toContain(secret);
    }
    expect(lines.length).toBeGreaterThan(0);
    expect(rows.rows.length).toBeGreaterThan(0);
  });
});
