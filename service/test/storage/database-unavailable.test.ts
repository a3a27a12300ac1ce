// product.md, "database messages": errors the database server raises pass their message through
// (the spec's 500s), but a failure of the connection itself (refused, unknown host or database,
// gone) answers 500 {"error":"Database unavailable"}: host names, addresses and users stay in the
// log. /health says the same. Built without migrating, since there is no database to migrate.
import { Writable } from 'node:stream';
import { inject, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { buildDeps, closeDeps } from '../../src/deps.ts';
import { createLogger } from '../../src/logger.ts';
import { freePort } from '../support/pg-server.ts';
import { planPayload } from '../support/factories.ts';

async function appOn(databaseUrl: string) {
  const lines: string[] = [];
  const logger = createLogger({
    level: 'info',
    destination: new Writable({
      write: (c, _e, done) => {
        lines.push(String(c));
        done();
      },
    }),
  });
  const deps = await buildDeps(loadConfig({ DATABASE_URL: databaseUrl, DB_POOL_SIZE: '2', NODE_ENV: 'test' }), {
    logger,
  });
  const app = buildApp(deps);
  await app.ready();
  return {
    app,
    log: async () => {
      await new Promise((r) => setTimeout(r, 400)); // the logger flushes every 250 ms
      return lines.join('');
    },
    close: async () => {
      await app.close();
      await closeDeps(deps);
    },
  };
}

const id = '6f1c2d4e-0000-4000-8000-000000000000';

describe('database connection failures', () => {
  it.each([
    [
      'a refused connection',
      async () => `postgres://billing_user:pw@127.0.0.1:${await freePort()}/billing`,
      'ECONNREFUSED',
    ],
    [
      'an unknown database on a live server',
      async () => `${inject('pgUrl').replace(/\/[^/]*$/, '')}/no_such_database_here`,
      'no_such_database_here',
    ],
  ])(
    '%s: 500 "Database unavailable" on every route and on /health; the cause only in the log',
    async (_label, url, cause) => {
      const a = await appOn(await url());
      try {
        for (const [method, path, payload] of [
          ['GET', `/plans/${id}`, undefined],
          ['POST', '/plans', planPayload(id)],
          [
            'POST',
            '/merchants',
            { name: 'A', wallet_address: 'GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H' },
          ],
        ] as const) {
          const res = await a.app.inject({ method, url: path, payload });
          expect(res.statusCode, path).toBe(500);
          expect(res.json(), path).toEqual({ error: 'Database unavailable' });
        }
        const health = await a.app.inject({ method: 'GET', url: '/health' });
        expect(health.statusCode).toBe(503);
        expect(health.json()).toEqual({ status: 'unavailable', error: 'Database unavailable' });
        const ready = await a.app.inject({ method: 'GET', url: '/ready' });
        expect(ready.json()).toEqual({ status: 'unavailable', error: 'Database unavailable' });
        expect(await a.log()).toContain(cause);
      } finally {
        await a.close();
      }
    },
  );
});
