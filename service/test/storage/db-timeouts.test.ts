// Time limits on the database server: a black-holed host fails start-up with a clear message
// within DB_CONNECT_TIMEOUT_MS instead of hanging, and a statement that runs past
// DB_STATEMENT_TIMEOUT_MS is cancelled by the server.
import { spawn } from 'node:child_process';
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startApp } from '../support/app.ts';

const SERVICE_DIR = fileURLToPath(new URL('../..', import.meta.url));

describe('database time limits', () => {
  const sockets: Socket[] = [];
  const blackHole = createServer((socket) => void sockets.push(socket)); // accepts, never answers
  afterAll(() => {
    for (const s of sockets) s.destroy();
    blackHole.close();
  });

  it('a black-holed database: start-up fails within the connect timeout, saying which database and why', async () => {
    await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
    const port = (blackHole.address() as AddressInfo).port;
    const started = Date.now();
    const child = spawn(process.execPath, ['src/main.ts'], {
      cwd: SERVICE_DIR,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: `postgres://billing:pw@127.0.0.1:${port}/billing`,
        DB_CONNECT_TIMEOUT_MS: '500',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(sockets.length).toBeGreaterThan(0); // it did reach the black hole
    expect(stderr).toContain(`start-up failed: cannot use the database (PostgreSQL at 127.0.0.1:${port}/billing): `);
    expect(stderr).toMatch(/timeout/i);
    expect(stderr).not.toContain('pw@'); // no password in the message
  }, 20_000);

  it('a statement past DB_STATEMENT_TIMEOUT_MS is cancelled', async () => {
    const t = await startApp('postgres', { env: { DB_STATEMENT_TIMEOUT_MS: '300' } });
    try {
      const started = Date.now();
      const err = await t.deps.db.query('SELECT pg_sleep(3)').catch((e: unknown) => e);
      expect(Date.now() - started).toBeLessThan(2_500);
      expect(err).toMatchObject({ code: 'DATABASE', message: 'canceling statement due to statement timeout' });
    } finally {
      await t.close();
    }
  });
});
