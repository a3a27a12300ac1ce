// Runs the service as its own OS process (`node src/main.ts`), as production does, so tests can
// run two replicas side by side or kill one with SIGKILL mid-pull.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from './pg-server.ts';

const SERVICE_DIR = fileURLToPath(new URL('../..', import.meta.url));

export interface ServiceProcess {
  url: string;
  process: ChildProcess;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export async function startServiceProcess(env: Record<string, string | undefined>): Promise<ServiceProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['src/main.ts'], {
    cwd: SERVICE_DIR,
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/health`)).ok) break;
    } catch {}
    if (i > 300) throw new Error('service did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    process: child,
    kill: (signal = 'SIGTERM') =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
  };
}

export async function http(base: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}
