// The hosted pages as the service serves them: no key, the network written into the page as inert
// JSON, the local test wallet offered outside production only, a CSP, and a 503 that says how to
// build when web/dist is missing (start-up never builds).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { pageHtml, registerWebPages } from '../../src/http/web-pages.ts';

const INDEX = '<!doctype html><html><head><title>x</title></head><body><div id="app"></div></body></html>';

async function serve(env: Record<string, string>, dist: string) {
  const app = Fastify();
  registerWebPages(app, loadConfig({ LOG_LEVEL: 'silent', ...env }), dist);
  await app.ready();
  return app;
}

const configOf = (html: string) =>
  JSON.parse(html.match(/<script id="billing-config" type="application\/json">(.*?)<\/script>/)![1]);

describe('hosted pages', () => {
  const dist = mkdtempSync(join(tmpdir(), 'web-dist-'));
  writeFileSync(join(dist, 'index.html'), INDEX);
  const chain = {
    SOROBAN_RPC_URL: 'http://127.0.0.1:8000/',
    STELLAR_NETWORK_PASSPHRASE: 'Local ; 2026',
    CONTRACT_ID: 'CDN5MTPYHNHJFUATWRM4ZIQANR3TIFURM4W57O46DWQSBM7KBFRSTBSL',
  };

  it('serves each page with the network and, outside production, the local test wallet', async () => {
    const app = await serve({ NODE_ENV: 'development', ...chain }, dist);
    for (const url of [`/checkout/${crypto.randomUUID()}`, '/dashboard', '/manage']) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(configOf(res.body)).toEqual({
        rpc_url: chain.SOROBAN_RPC_URL,
        network_passphrase: chain.STELLAR_NETWORK_PASSPHRASE,
        vault_contract_id: chain.CONTRACT_ID,
        local_wallet: true,
      });
    }
    await app.close();
  });

  it('never offers the local test wallet in production', async () => {
    const app = await serve({ NODE_ENV: 'production', ...chain }, dist);
    expect(configOf((await app.inject({ url: '/dashboard' })).body).local_wallet).toBe(false);
    await app.close();
  });

  it('writes the configuration so that no value can close its script element', () => {
    const html = pageHtml(INDEX, {
      rpc_url: 'http://x/</script><script>alert(1)</script>',
      network_passphrase: 'p',
      vault_contract_id: null,
      local_wallet: false,
    });
    expect(html).not.toContain('</script><script>alert');
    expect(configOf(html).rpc_url).toBe('http://x/</script><script>alert(1)</script>');
  });

  it('answers 503 saying how to build when the front end is not built', async () => {
    const app = await serve({ NODE_ENV: 'development' }, join(dist, 'absent'));
    const res = await app.inject({ url: '/dashboard' });
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain('npm run build -w web');
    await app.close();
  });
});
