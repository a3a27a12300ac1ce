// Starts a throw-away PostgreSQL 15 cluster under /tmp on loopback for tests and benchmarks.
// PostgreSQL refuses to run as root, so when we are root every server command runs as the
// `postgres` OS user (runuser). The caller stops it; stop() also removes the data directory.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

export interface PgServer {
  url: string;
  port: number;
  stop(): void;
}

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

function asPostgres(cmd: string, args: string[]): void {
  const isRoot = process.getuid?.() === 0;
  const [file, argv] = isRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
  const res = spawnSync(file, argv, { encoding: 'utf8' });
  if (res.status !== 0) {
    throw new Error(`${cmd} failed (${res.status}): ${res.stderr || res.stdout}`);
  }
}

export async function startPostgres(options: { maxConnections?: number } = {}): Promise<PgServer> {
  const dir = mkdtempSync(join(tmpdir(), 'billing-pg-'));
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  asPostgres(`${BIN}/initdb`, ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  const opts = [
    `-p ${port}`,
    `-k ${dir}`,
    `-h 127.0.0.1`,
    `-c fsync=off`,
    `-c synchronous_commit=off`,
    `-c full_page_writes=off`,
    `-c max_connections=${options.maxConnections ?? 200}`,
  ].join(' ');
  asPostgres(`${BIN}/pg_ctl`, ['-D', data, '-o', opts, '-l', join(dir, 'log'), '-w', 'start']);
  asPostgres(`${BIN}/createdb`, ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', 'billing']);
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/billing`,
    port,
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        asPostgres(`${BIN}/pg_ctl`, ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
