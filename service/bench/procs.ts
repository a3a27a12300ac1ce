// Child processes of the bench: every server and load generator is started here, pinned to a
// CPU with taskset, tracked by PID, and stopped by PID on exit, on Ctrl-C and on a crash, so a
// failed run never leaves a server or a PostgreSQL cluster behind.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';

export const CPU_SERVER = 0; // the server under test
export const CPU_LOAD = 1; // wrk, PostgreSQL and this orchestrator

const children = new Set<ChildProcess>();
const cleanups: Array<() => void | Promise<void>> = [];

// Decided once, before pinSelf() narrows this process's own affinity (after which
// availableParallelism() and `nproc` would report a single CPU).
const PINNABLE = cpus().length >= 2 && availableParallelism() >= 2 && spawnSync('taskset', ['-V']).status === 0;
export const CPU_COUNT = availableParallelism();

export function canPin(): boolean {
  return PINNABLE;
}

/** Moves this process (all threads) to the load CPU, so everything it starts inherits that CPU. */
export function pinSelf(): void {
  if (!canPin()) return;
  spawnSync('taskset', ['-a', '-p', '-c', String(CPU_LOAD), String(process.pid)], { stdio: 'ignore' });
}

export interface Spawned {
  child: ChildProcess;
  pid: number;
  output(): string; // last few KB of stdout+stderr, for error messages
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<void>;
}

export function start(
  cmd: string,
  args: string[],
  opts: { cpu?: number; cwd?: string; env?: NodeJS.ProcessEnv; quiet?: boolean } = {},
): Spawned {
  const [file, argv] =
    opts.cpu !== undefined && canPin() ? ['taskset', ['-c', String(opts.cpu), cmd, ...args]] : [cmd, args];
  // taskset execs the command, so the PID we get is the command's own PID.
  const child = spawn(file, argv, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let tail = '';
  const keep = (b: Buffer) => {
    tail = (tail + b.toString()).slice(-8192);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => {
    child.on('exit', (code) => {
      children.delete(child);
      resolve(code);
    });
    child.on('error', (err) => {
      tail += `\n${err.message}`;
      children.delete(child);
      resolve(-1);
    });
  });
  return {
    child,
    pid: child.pid ?? -1,
    output: () => tail,
    exited,
    async stop(signal = 'SIGTERM', graceMs = 5000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Runs fn on exit (in reverse order of registration): used for the PostgreSQL cluster and temp dirs. */
export function onCleanup(fn: () => void | Promise<void>): void {
  cleanups.push(fn);
}

let cleaning: Promise<void> | undefined;
export const shuttingDown = (): boolean => cleaning !== undefined;
export function cleanupAll(): Promise<void> {
  cleaning ??= (async () => {
    for (const c of children) c.kill('SIGKILL');
    children.clear();
    for (const fn of cleanups.reverse()) {
      try {
        await fn();
      } catch (err) {
        console.error('cleanup failed:', (err as Error).message);
      }
    }
  })();
  return cleaning;
}

export function installSignalHandlers(): void {
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(sig, () => {
      console.error(`\n${sig}: stopping servers and PostgreSQL…`);
      void cleanupAll().finally(() => process.exit(130));
    });
  }
  // Last resort: synchronous kill of anything still tracked if we exit some other way.
  process.on('exit', () => {
    for (const c of children) c.kill('SIGKILL');
  });
}

/** Polls an HTTP URL until it answers (any status) or the process dies or the deadline passes. */
export async function waitForHttp(url: string, proc: Spawned, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let dead = false;
  void proc.exited.then(() => (dead = true));
  while (Date.now() < deadline) {
    if (dead) throw new Error(`process exited before listening on ${url}:\n${proc.output()}`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(1000) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`timed out waiting for ${url}:\n${proc.output()}`);
}

export function rssKb(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /VmRSS:\s+(\d+) kB/.exec(status);
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

// One free-port helper for tests and benchmarks.
export { freePort } from '../test/support/pg-server.ts';

const CLK_TCK = 100; // Linux USER_HZ; `getconf CLK_TCK` is 100 on every mainstream kernel

/** CPU time (user + system) a process has used so far, in microseconds; undefined if it is gone. */
export function cpuUs(pid: number): number | undefined {
  try {
    // Fields after the ")" that closes the command name: state is field 3, utime 14, stime 15.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1e6) / CLK_TCK;
  } catch {
    return undefined;
  }
}

/** Busy time of one CPU so far (all processes), in microseconds, from /proc/stat. */
export function cpuBusyUs(cpu: number): number | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`cpu${cpu} `));
    if (!line) return undefined;
    // user nice system idle iowait irq softirq steal …: process time plus time the hypervisor
    // took. Interrupts are left out: loopback TCP of our own load lands there, not on a process.
    const [user, nice, system, , , , , steal] = line.trim().split(/\s+/).slice(1).map(Number);
    return ((user + nice + system + steal) * 1e6) / CLK_TCK;
  } catch {
    return undefined;
  }
}

/** The CPUs a process may run on, as Linux lists them ("0", "1", "0-1"). */
export function affinity(pid: number): string {
  try {
    return /Cpus_allowed_list:\s*(\S+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? '?';
  } catch {
    return '?';
  }
}
