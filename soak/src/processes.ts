// The soak's processes: a throw-away PostgreSQL cluster (restartable), the local Soroban network
// (its CLI, as a developer runs it) and service replicas (`node service/src/main.ts`), each a
// child of this runner. Nothing here imports the service's or the devnet's code.
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { chownSync, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function asPostgres(cmd: string, args: string[]): void {
  const isRoot = process.getuid?.() === 0;
  const [file, argv] = isRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
  const res = spawnSync(file, argv, { encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`${cmd} failed (${res.status}): ${res.stderr || res.stdout}`);
}

export interface Postgres {
  url: string;
  /** Stops the server (immediate: like a crash) and starts it again on the same port after `downMs`. */
  restart(downMs: number): Promise<void>;
  stop(): void;
}

export async function startPostgres(): Promise<Postgres> {
  const dir = mkdtempSync(join(tmpdir(), 'soak-pg-'));
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  asPostgres(`${PG_BIN}/initdb`, ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  const opts = [`-p ${port}`, `-k ${dir}`, `-h 127.0.0.1`, `-c fsync=off`, `-c max_connections=200`].join(' ');
  const start = () => asPostgres(`${PG_BIN}/pg_ctl`, ['-D', data, '-o', opts, '-l', join(dir, 'log'), '-w', 'start']);
  start();
  asPostgres(`${PG_BIN}/createdb`, ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', 'billing']);
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/billing`,
    async restart(downMs) {
      asPostgres(`${PG_BIN}/pg_ctl`, ['-D', data, '-m', 'immediate', '-w', 'stop']);
      await sleep(downMs);
      start();
    },
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        asPostgres(`${PG_BIN}/pg_ctl`, ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {}
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface DevnetInfo {
  rpcUrl: string;
  controlUrl: string;
  passphrase: string;
  contracts: { vault: string; token: string };
  tokenAdmin: { publicKey: string; secret: string };
  accounts: { publicKey: string; secret: string }[];
}

export interface Devnet extends DevnetInfo {
  control<T = unknown>(path: string, body?: unknown): Promise<T>;
  stop(): void;
}

export async function startDevnet(ledgerMs: number): Promise<Devnet> {
  const child = spawn(
    process.execPath,
    [join(ROOT, 'devnet/src/cli.ts'), '--port', '0', '--ledger-ms', String(ledgerMs), '--json'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout! });
  const info = await new Promise<DevnetInfo>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`devnet exited early with code ${code}`)));
    lines.once('line', (line) => resolve(JSON.parse(line) as DevnetInfo));
  });
  lines.on('line', () => {});
  async function control<T>(path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${info.controlUrl}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`devnet control ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  }
  return { ...info, control, stop: () => void child.kill('SIGTERM') };
}

/** One service replica slot: a fixed port, restartable after a SIGKILL or SIGTERM. */
export class Replica {
  child: ChildProcess | undefined;
  up = false;
  readonly url: string;
  readonly index: number;
  readonly port: number;
  private readonly env: Record<string, string>;
  private readonly logFile: string;
  private readonly serviceDir: string;
  constructor(
    index: number,
    port: number,
    env: Record<string, string>,
    logFile: string,
    serviceDir = join(ROOT, 'service'),
  ) {
    this.serviceDir = serviceDir;
    this.index = index;
    this.port = port;
    this.env = env;
    this.logFile = logFile;
    this.url = `http://127.0.0.1:${port}`;
  }

  async start(): Promise<void> {
    const log = createWriteStream(this.logFile, { flags: 'a' });
    const child = spawn(process.execPath, ['src/main.ts'], {
      cwd: this.serviceDir,
      env: { ...process.env, ...this.env, HOST: '127.0.0.1', PORT: String(this.port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // LOG_LEVEL=error: only errors reach the log (pino writes to stdout).
    child.stdout!.pipe(log);
    child.stderr!.pipe(log);
    this.child = child;
    child.once('exit', () => {
      if (this.child === child) this.up = false;
    });
    for (let i = 0; ; i++) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`replica ${this.index} exited at start (see ${this.logFile})`);
      try {
        if ((await fetch(`${this.url}/health`)).ok) break;
      } catch {}
      if (i > 600) throw new Error(`replica ${this.index} did not start`);
      await sleep(100);
    }
    this.up = true;
  }

  /** Sends the signal and resolves when the process has exited. */
  kill(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    this.up = false;
    return new Promise((resolve) => {
      if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  }
}
