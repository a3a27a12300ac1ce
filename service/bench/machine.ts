// What the figures were measured on: machine, versions and the git commit, for BENCHMARKS.md.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, release } from 'node:os';
import { wrkVersion } from './load.ts';
import { CPU_COUNT } from './procs.ts';
import { SERVICE_DIR } from './servers.ts';

const sh = (cmd: string, args: string[]) => {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', cwd: SERVICE_DIR }).trim();
  } catch {
    return 'unknown';
  }
};

const PACKAGES = ['fastify', 'pg', '@electric-sql/pglite', 'zod', 'pino', 'express', '@stellar/stellar-sdk'];

function pkgVersion(name: string): string {
  const req = createRequire(`${SERVICE_DIR}package.json`);
  try {
    // Some packages hide package.json behind "exports"; walk up from the entry point instead.
    let dir = req.resolve(name).replace(/\/[^/]+$/, '');
    for (;;) {
      try {
        const p = JSON.parse(readFileSync(`${dir}/package.json`, 'utf8')) as { name?: string; version: string };
        if (p.name === name) return p.version;
      } catch {}
      const up = dir.replace(/\/[^/]+$/, '');
      if (up === dir) return 'unknown';
      dir = up;
    }
  } catch {
    return 'not installed';
  }
}

export interface Machine {
  date: string;
  nproc: number;
  cpu: string;
  memory: string;
  kernel: string;
  node: string;
  postgres: string;
  wrk: string;
  packages: Record<string, string>;
  commit: string;
  dirty: boolean;
  loadavg: string;
}

export function machine(postgres: string): Machine {
  return {
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    nproc: CPU_COUNT,
    cpu: cpus()[0]?.model ?? 'unknown',
    memory: sh('free', ['-g']),
    kernel: release(),
    node: process.version,
    postgres,
    wrk: wrkVersion(),
    packages: Object.fromEntries(PACKAGES.map((p) => [p, pkgVersion(p)])),
    commit: sh('git', ['rev-parse', '--short', 'HEAD']),
    dirty: sh('git', ['status', '--porcelain', '--', 'src']) !== '',
    loadavg: loadavg()
      .map((x) => x.toFixed(2))
      .join(' '),
  };
}

export function machineMarkdown(m: Machine): string {
  return [
    `- Date: ${m.date}; commit ${m.commit}${m.dirty ? ' (service/src had uncommitted changes)' : ''}`,
    `- Machine: ${m.nproc} CPUs (\`nproc\`), ${m.cpu}, Linux ${m.kernel}`,
    `- Memory (\`free -g\`):\n\n\`\`\`\n${m.memory}\n\`\`\``,
    `- Load average when the report was written (1/5/15 min): ${m.loadavg}`,
    `- Node ${m.node}, PostgreSQL ${m.postgres}, ${m.wrk}`,
    `- Packages: ${Object.entries(m.packages)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  ].join('\n');
}
