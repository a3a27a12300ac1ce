// Cold start (issue 15 item 2): `npm start` in a fresh clone, from the command to the first
// /health 200, on the embedded database with an empty data directory (so migrations run), as a new
// user meets it. The same is measured for a baseline commit in the same run, so the figure says
// how much the features added since then cost, on this machine, in these minutes.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './measure.ts';
import { freePort, onCleanup } from './procs.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
/** The last commit before issue 15's session; its cold start was about 1.7 s. */
export const COLD_START_BASELINE = 'df1c5f7';
const RUNS = 3;

export interface ColdStart {
  rev: string;
  runsMs: number[];
  medianMs: number;
}

/** A clone of `rev` sharing this tree's installed node_modules; built like `npm ci` would. */
function cloneAt(rev: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'billing-cold-start-'));
  onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  execFileSync('git', ['clone', '-q', '--no-checkout', REPO, dir]);
  execFileSync('git', ['-C', dir, 'checkout', '-q', rev]);
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
  // Workspaces with packages of their own (web/ has its own TypeScript for openapi-typescript).
  for (const ws of ['service', 'devnet', 'web', 'soak', 'demo'])
    if (existsSync(join(REPO, ws, 'node_modules')) && existsSync(join(dir, ws)))
      symlinkSync(join(REPO, ws, 'node_modules'), join(dir, ws, 'node_modules'));
  // What `npm ci` does after installing: workspaces' own build steps (the front end), not timed.
  const pkg = JSON.parse(execFileSync('git', ['-C', dir, 'show', `${rev}:package.json`], { encoding: 'utf8' }));
  if (pkg.scripts?.build) execFileSync('npm', ['run', 'build'], { cwd: dir, stdio: 'ignore' });
  return dir;
}

async function once(dir: string): Promise<number> {
  rmSync(join(dir, 'service', 'data'), { recursive: true, force: true });
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  const began = performance.now();
  // Its own process group, so npm and the node it starts stop together.
  const child = spawn('npm', ['start'], { cwd: dir, env, stdio: 'ignore', detached: true });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
      if (performance.now() - began > 60_000) throw new Error('no /health 200 within 60 s');
      const ok = await fetch(`http://127.0.0.1:${port}/health`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) return performance.now() - began;
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    const gone = new Promise((r) => child.once('exit', r));
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
    await gone;
  }
}

export async function measureColdStart(log: (s: string) => void): Promise<ColdStart[]> {
  const out: ColdStart[] = [];
  const revs = [
    COLD_START_BASELINE,
    execFileSync('git', ['-C', REPO, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim(),
  ];
  const dirs = revs.map(cloneAt);
  const runs: number[][] = revs.map(() => []);
  // Interleaved, like the HTTP figures, so both see the same machine.
  for (let i = 0; i < RUNS; i++) for (const [k, dir] of dirs.entries()) runs[k].push(await once(dir));
  for (const [k, rev] of revs.entries()) {
    out.push({ rev, runsMs: runs[k], medianMs: median(runs[k]) });
    log(`cold start ${rev}: ${runs[k].map((ms) => ms.toFixed(0)).join(', ')} ms`);
  }
  return out;
}

export function coldStartMarkdown(rs: ColdStart[], dirty: boolean): string {
  const [base, head] = rs;
  const ratio = head.medianMs / base.medianMs;
  return `## Cold start: \`npm start\` on a fresh clone to /health 200

Command: \`npm run bench\` (part of every run; \`--no-cold-start\` skips it). A clone of each commit sharing the
installed node_modules (its front end built first, untimed, as \`npm ci\` does), an empty embedded data directory
(migrations run), ${RUNS} runs each, interleaved; median (all runs).

| commit | median | runs |
|---|---|---|
| ${base.rev} (before issue 15's session) | ${(base.medianMs / 1000).toFixed(2)} s | ${base.runsMs.map((m) => (m / 1000).toFixed(2)).join(', ')} |
| ${head.rev}${dirty ? ' (HEAD; uncommitted changes not included)' : ' (HEAD)'} | ${(head.medianMs / 1000).toFixed(2)} s | ${head.runsMs.map((m) => (m / 1000).toFixed(2)).join(', ')} |

HEAD ÷ baseline: ${ratio.toFixed(2)}× (target ≤ 1.20×: ${ratio <= 1.2 ? 'met' : '**missed**'}).
`;
}

export const coldStartAvailable = () => existsSync(join(REPO, '.git'));
