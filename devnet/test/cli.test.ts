// The CLI as scripts use it: --json prints exactly one JSON line, SIGTERM exits 0.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { expect, it } from 'vitest';
import { StrKey } from '@stellar/stellar-sdk';

it('prints one JSON line with URLs, passphrase, contracts and accounts, and exits 0 on SIGTERM', async () => {
  const child = spawn(
    process.execPath,
    ['src/cli.ts', '--json', '--port', '0', '--ledger-ms', '0', '--accounts', '3'],
    {
      cwd: new URL('..', import.meta.url).pathname,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  while (!out.includes('\n')) await once(child.stdout, 'data');
  const info = JSON.parse(out.trim());
  expect(Object.keys(info)).toEqual([
    'rpcUrl',
    'controlUrl',
    'passphrase',
    'ledgerMs',
    'vaultBuild',
    'contracts',
    'tokenAdmin',
    'accounts',
  ]);
  expect(info.vaultBuild).toBe('deployed');
  expect(info.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  expect(info.controlUrl).toBe(`${info.rpcUrl}control`);
  expect(info.ledgerMs).toBe(0);
  expect(StrKey.isValidContract(info.contracts.vault) && StrKey.isValidContract(info.contracts.token)).toBe(true);
  expect(info.accounts).toHaveLength(3);
  expect(StrKey.isValidEd25519SecretSeed(info.accounts[0].secret)).toBe(true);
  const state = (await (await fetch(`${info.controlUrl}/state`)).json()) as { sequence: number };
  expect(state.sequence).toBe(1);
  child.kill('SIGTERM');
  const [code] = await once(child, 'exit');
  expect(code).toBe(0);
  expect(out.trim().split('\n')).toHaveLength(1);
});

it('derives the same accounts and contract ids on every start', async () => {
  const { startDevnet } = await import('../src/index.ts');
  const [a, b] = [await startDevnet({ ledgerMs: 0, accounts: 2 }), await startDevnet({ ledgerMs: 0, accounts: 2 })];
  expect(a.contracts).toEqual(b.contracts);
  expect(a.accounts).toEqual(b.accounts);
  expect(a.tokenAdmin).toEqual(b.tokenAdmin);
  await Promise.all([a.close(), b.close()]);
});

it('--retention-ledgers sets the window getHealth reports, and refuses 0', async () => {
  const cwd = new URL('..', import.meta.url).pathname;
  const child = spawn(
    process.execPath,
    ['src/cli.ts', '--json', '--port', '0', '--ledger-ms', '0', '--accounts', '1', '--retention-ledgers', '7'],
    {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  while (!out.includes('\n')) await once(child.stdout, 'data');
  const info = JSON.parse(out.trim());
  const res = await fetch(info.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getHealth' }),
  });
  expect(((await res.json()) as { result: { ledgerRetentionWindow: number } }).result.ledgerRetentionWindow).toBe(7);
  child.kill('SIGTERM');
  await once(child, 'exit');
  const bad = spawn(process.execPath, ['src/cli.ts', '--retention-ledgers', '0'], {
    cwd,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  bad.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const [code] = await once(bad, 'exit');
  expect(code).toBe(2);
  expect(err).toContain('--retention-ledgers must be a positive integer');
});

it('--vault-build extended runs the extended vault (same id, other code), and refuses an unknown build', async () => {
  const cwd = new URL('..', import.meta.url).pathname;
  const child = spawn(
    process.execPath,
    ['src/cli.ts', '--json', '--port', '0', '--ledger-ms', '0', '--accounts', '1', '--vault-build', 'extended'],
    {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  while (!out.includes('\n')) await once(child.stdout, 'data');
  const info = JSON.parse(out.trim());
  expect(info.vaultBuild).toBe('extended');
  const { startDevnet } = await import('../src/index.ts');
  const deployed = await startDevnet({ ledgerMs: 0, accounts: 1 });
  expect(info.contracts).toEqual(deployed.contracts);
  await deployed.close();
  child.kill('SIGTERM');
  await once(child, 'exit');
  const bad = spawn(process.execPath, ['src/cli.ts', '--vault-build', 'v2'], {
    cwd,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  bad.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const [code] = await once(bad, 'exit');
  expect(code).toBe(2);
  expect(err).toContain('--vault-build must be one of deployed, extended');
});
