// Starts the local Soroban network as a child process (its CLI), exactly as a developer would,
// and talks to it only over HTTP: JSON-RPC through the real SDK, and its control API. The
// service's tests never import the devnet's code.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../../devnet/src/cli.ts', import.meta.url));

export interface DevnetInfo {
  rpcUrl: string;
  controlUrl: string;
  passphrase: string;
  ledgerMs: number;
  contracts: { vault: string; token: string };
  tokenAdmin: { publicKey: string; secret: string };
  accounts: { publicKey: string; secret: string }[];
}

export interface ChainTx {
  hash: string;
  source: string;
  function: string;
  contract: string;
  args: string[];
  status: 'queued' | 'success' | 'failed' | 'dropped' | 'expired' | 'evicted' | 'replaced';
  ledger?: number;
  feeBump?: { feeSource: string; innerHash: string };
}

export interface Devnet extends DevnetInfo {
  control<T = unknown>(path: string, body?: unknown): Promise<T>;
  transactions(): Promise<ChainTx[]>;
  stop(): Promise<void>;
  process: ChildProcess;
}

export interface DevnetOptions {
  ledgerMs?: number;
  retentionLedgers?: number;
  /** `extended`: the vault with cancel_vault and events, as Orbit's README plans. */
  vaultBuild?: 'deployed' | 'extended';
  /** More CLI flags, e.g. ['--min-persistent-ttl', '20']. */
  extraArgs?: string[];
}

export async function startDevnet(options: DevnetOptions = {}): Promise<Devnet> {
  const args = [CLI, '--port', '0', '--ledger-ms', String(options.ledgerMs ?? 200), '--json'];
  if (options.retentionLedgers !== undefined) args.push('--retention-ledgers', String(options.retentionLedgers));
  if (options.vaultBuild) args.push('--vault-build', options.vaultBuild);
  args.push(...(options.extraArgs ?? []));
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const info = await new Promise<DevnetInfo>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`devnet exited early with code ${code}`)));
    lines.once('line', (line) => resolve(JSON.parse(line) as DevnetInfo));
  });
  lines.on('line', () => {}); // keep draining stdout
  async function control<T>(path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${info.controlUrl}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`devnet control ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  }
  return {
    ...info,
    process: child,
    control,
    transactions: () => control<ChainTx[]>('/transactions'),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
