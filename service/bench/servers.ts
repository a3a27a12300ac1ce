// Starting the servers under test, each pinned to the server CPU: the service itself (on
// PostgreSQL or on embedded PGlite) and the reference servers shipped in ./reference-servers.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CPU_SERVER, type Spawned, freePort, onCleanup, shuttingDown, start, waitForHttp } from './procs.ts';

export const SERVICE_DIR = fileURLToPath(new URL('..', import.meta.url));
const REF_DIR = fileURLToPath(new URL('./reference-servers/', import.meta.url));

export interface Server {
  name: string;
  base: string;
  proc: Spawned;
}

async function launch(name: string, args: string[], env: NodeJS.ProcessEnv, cwd: string, probe = '/'): Promise<Server> {
  const port = await freePort();
  const merged: NodeJS.ProcessEnv = { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' };
  // An undefined value means "unset it" (DATABASE_URL for the PGlite service).
  for (const k of Object.keys(merged)) if (merged[k] === undefined) delete merged[k];
  const proc = start(process.execPath, args, { cpu: CPU_SERVER, cwd, env: merged });
  const base = `http://127.0.0.1:${port}`;
  await waitForHttp(base + probe, proc);
  // A server that dies mid-bench says so, with its last output, instead of leaving wrk to
  // report a bare "connection refused".
  let stopping = false;
  void proc.exited.then((code) => {
    if (!stopping && !shuttingDown())
      console.error(
        `[bench] ${name} (pid ${proc.pid}) exited with ${code} during the bench:\n${proc.output().slice(-2000)}`,
      );
  });
  const stop = proc.stop;
  proc.stop = (...args) => {
    stopping = true;
    return stop(...args);
  };
  return { name, base, proc };
}

/**
 * The service as `node src/main.ts`. With no databaseUrl it runs on embedded PGlite in a fresh
 * temp dir (its default ./data folder, via the working directory). extraNodeArgs is for
 * profiling (--cpu-prof …).
 */
export async function startService(o: {
  databaseUrl?: string;
  extraNodeArgs?: string[];
  env?: NodeJS.ProcessEnv;
  entry?: string;
}): Promise<Server> {
  let cwd = SERVICE_DIR;
  const env: NodeJS.ProcessEnv = { LOG_LEVEL: 'warn', ...o.env };
  if (o.databaseUrl) {
    env.DATABASE_URL = o.databaseUrl;
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'billing-bench-pglite-'));
    onCleanup(() => rmSync(dir, { recursive: true, force: true }));
    cwd = dir;
    env.DATABASE_URL = undefined;
  }
  // entry: another build of the service (the webhooks part's baseline from before events).
  const main = o.entry ?? join(SERVICE_DIR, 'src/main.ts');
  const name = o.databaseUrl ? 'service (PostgreSQL)' : 'service (PGlite)';
  return launch(name, [...(o.extraNodeArgs ?? []), main], env, cwd, '/health');
}

export async function startReference(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<Server> {
  return launch(file, [join(REF_DIR, file), ...args], env, SERVICE_DIR);
}
