// The `billing` CLI as an operator runs it: a child process, configured by the environment only,
// against an embedded PGlite database in a temporary directory (./data under its cwd).
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newWallet } from '../support/factories.ts';

const CLI = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const MIGRATIONS = readdirSync(fileURLToPath(new URL('../../src/storage/migrations', import.meta.url)))
  .filter((f) => f.endsWith('.sql'))
  .map((f) => f.replace(/\.sql$/, ''))
  .sort();
const run = promisify(execFile);

describe('billing CLI', () => {
  let dir: string;
  const env = () => ({ PATH: process.env.PATH, HOME: dir, NODE_ENV: 'development', LOG_LEVEL: 'warn' });
  /** Exit status, stdout and stderr of one invocation. */
  async function billing(...args: string[]) {
    return billingWith({}, ...args);
  }
  async function billingWith(extra: Record<string, string>, ...args: string[]) {
    try {
      const { stdout, stderr } = await run(process.execPath, [CLI, ...args], {
        cwd: dir,
        env: { ...env(), ...extra },
        timeout: 60_000,
      });
      return { code: 0, stdout, stderr };
    } catch (err) {
      const e = err as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  }

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'billing-cli-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('--help lists the commands, and each command has its own --help', async () => {
    const top = await billing('--help');
    expect(top.code).toBe(0);
    for (const cmd of ['serve', 'migrate', 'merchants', 'plans', 'keys', 'signing-key', 'reconcile'])
      expect(top.stdout).toContain(cmd);
    const create = await billing('merchants', 'create', '--help');
    expect(create.stdout).toMatch(/--name <name>[\s\S]*--wallet <address>[\s\S]*--json/);
    expect((await billing('plans', 'list', '--help')).stdout).toContain('--merchant <id>');
  });

  it('data commands refuse to run before `billing migrate`, then migrate applies every file once', async () => {
    const early = await billing('merchants', 'list');
    expect(early.code).toBe(1);
    expect(early.stderr).toMatch(/run `billing migrate` first/);
    const first = await billing('migrate', '--json');
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout).applied).toEqual(MIGRATIONS);
    expect(MIGRATIONS.length).toBeGreaterThanOrEqual(4);
    expect((await billing('migrate')).stdout).toMatch(/schema up to date/);
  });

  it('merchants create | list | delete and plans list, human and --json', async () => {
    const wallet = newWallet();
    const created = await billing('merchants', 'create', '--name', 'Acme Streaming', '--wallet', wallet, '--json');
    expect(created.code, created.stderr).toBe(0);
    const { merchant } = JSON.parse(created.stdout);
    expect(merchant).toMatchObject({ name: 'Acme Streaming', wallet_address: wallet });
    const human = await billing('merchants', 'create', '--name', 'Beta', '--wallet', newWallet());
    expect(human.stdout).toMatch(/^Merchant created: [0-9a-f-]{36} Beta/);
    // The first API key, printed this once.
    expect(human.stdout).toMatch(/\nAPI key \(shown once, store it now\): bk_[A-Za-z0-9_-]{43}\n$/);
    expect(JSON.parse(created.stdout).api_key).toMatch(/^bk_/);

    const page = JSON.parse((await billing('merchants', 'list', '--json', '--limit', '1')).stdout);
    expect(page.merchants).toEqual([merchant]);
    expect(page.next_cursor).toEqual(expect.any(String));
    const rest = JSON.parse((await billing('merchants', 'list', '--json', '--cursor', page.next_cursor)).stdout);
    expect(rest.merchants.map((m: { name: string }) => m.name)).toEqual(['Beta']);
    const table = (await billing('merchants', 'list')).stdout;
    expect(table.split('\n')[0]).toMatch(/^ID\s+NAME\s+WALLET\s+CREATED$/);
    expect(table).toContain('Acme Streaming');

    expect(JSON.parse((await billing('plans', 'list', '--merchant', merchant.id, '--json')).stdout)).toEqual({
      plans: [],
      next_cursor: null,
    });

    const deleted = await billing('merchants', 'delete', merchant.id, '--json');
    expect(JSON.parse(deleted.stdout).merchant).toMatchObject({ id: merchant.id, deleted_at: expect.any(String) });
    const again = await billing('merchants', 'delete', merchant.id, '--json');
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stderr)).toEqual({ error: 'Merchant not found' });
  });

  it("reports bad input with the API's texts and exit status 1", async () => {
    const bad = await billing('merchants', 'create', '--name', ' ', '--wallet', newWallet());
    expect(bad).toMatchObject({ code: 1, stderr: 'billing: Invalid input on name: name cannot be empty\n' });
    expect((await billing('plans', 'list', '--merchant', 'nope')).stderr).toContain(
      'Invalid input on id: id parameter must be a valid UUID',
    );
    expect((await billing('merchants', 'create', '--name', 'x')).stderr).toContain(
      "required option '--wallet <address>' not specified",
    );
  });

  it('keys create | list | revoke, and signing-key rotate-kek', async () => {
    const { merchant, api_key } = JSON.parse(
      (await billing('merchants', 'create', '--name', 'Keys Co', '--wallet', newWallet(), '--json')).stdout,
    );
    const created = await billing('keys', 'create', '--merchant', merchant.id, '--label', 'cron', '--json');
    expect(created.code, created.stderr).toBe(0);
    const { api_key: second, key } = JSON.parse(created.stdout);
    expect(second).toMatch(/^bk_/);
    expect(key).toMatchObject({ prefix: second.slice(0, 11), label: 'cron' });
    const human = await billing('keys', 'create', '--merchant', merchant.id);
    expect(human.stdout).toMatch(/API key \(shown once, store it now\): bk_/);

    const list = await billing('keys', 'list', '--merchant', merchant.id);
    expect(list.stdout.split('\n')[0]).toMatch(/^ID\s+PREFIX\s+LABEL\s+CREATED\s+LAST_USED$/);
    for (const k of [api_key, second]) expect(list.stdout).not.toContain(k);
    expect(JSON.parse((await billing('keys', 'list', '--merchant', merchant.id, '--json')).stdout).keys).toHaveLength(
      3,
    );

    const revoked = await billing('keys', 'revoke', '--merchant', merchant.id, key.id, '--json');
    expect(JSON.parse(revoked.stdout).key).toMatchObject({ id: key.id, revoked_at: expect.any(String) });
    expect(JSON.parse((await billing('keys', 'revoke', '--merchant', merchant.id, key.id, '--json')).stderr)).toEqual({
      error: 'API key not found',
    });
    expect((await billing('keys', 'revoke', '--merchant', merchant.id, 'nope')).stderr).toContain(
      'Invalid input on key_id: key_id parameter must be a valid UUID',
    );

    const refused = await billing('signing-key', 'rotate-kek');
    expect(refused).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('SIGNING_KEY_ENCRYPTION_KEY is not set'),
    });
    const kek = Buffer.alloc(32, 9).toString('base64');
    const rotated = await billingWith(
      { SIGNING_KEY_ENCRYPTION_KEY: `new:${kek}` },
      'signing-key',
      'rotate-kek',
      '--json',
    );
    expect(rotated.code, rotated.stderr).toBe(0);
    expect(JSON.parse(rotated.stdout)).toEqual({ primaryKekId: 'new', rewrapped: 0, unreadable: [] });
  });

  it('serve starts the API on the configured port and stops on SIGTERM', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const child = spawn(process.execPath, [CLI, 'serve'], {
      cwd: dir,
      env: { ...env(), PORT: String(port), HOST: '127.0.0.1' },
      stdio: 'ignore',
    });
    try {
      let health: Response | undefined;
      for (let i = 0; i < 100 && !health; i++) {
        health = await fetch(`http://127.0.0.1:${port}/ready`).catch(() => undefined);
        if (!health) await new Promise((r) => setTimeout(r, 200));
      }
      expect(health?.status).toBe(200);
    } finally {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });
});
