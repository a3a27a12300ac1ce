// What every data command of the CLI runs in: the server's own configuration (the environment),
// composition root and verbs, as the `system` actor. Logs go to stderr so stdout stays the
// command's output (human text or JSON for scripts).
import pino from 'pino';
import { systemCtx } from '../billing/context.ts';
import type { Ctx } from '../billing/context.ts';
import { BillingError } from '../billing/errors.ts';
import { ConfigError, loadConfig } from '../config.ts';
import type { Config } from '../config.ts';
import { buildDeps, closeDeps } from '../deps.ts';
import type { Deps } from '../deps.ts';
import { createLogger } from '../logger.ts';
import { pendingMigrations } from '../storage/migrate.ts';

/** A failure the CLI reports as one line (or `{"error": …}` with --json) and exit status 1. */
export class CliError extends Error {
  override name = 'CliError';
}

export function cliConfig(): Config {
  try {
    return loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(err.message);
    throw err;
  }
}

export async function withDeps<T>(job: string, fn: (deps: Deps, ctx: Ctx) => Promise<T>, opts: { needsSchema?: boolean } = {}): Promise<T> {
  const config = cliConfig();
  if (config.database.kind === 'none') throw new CliError('No database: set DATABASE_URL (NODE_ENV=production has no embedded default)');
  const logger = createLogger({ level: config.logLevel === 'info' ? 'warn' : config.logLevel, destination: pino.destination({ dest: 2, sync: true }) });
  const deps = await buildDeps(config, { logger });
  try {
    if (opts.needsSchema !== false) {
      const pending = await pendingMigrations(deps.db);
      if (pending.length > 0) throw new CliError(`The database schema is behind (${pending.join(', ')} not applied): run \`billing migrate\` first`);
    }
    return await fn(deps, systemCtx(`cli:${job}`));
  } catch (err) {
    if (err instanceof BillingError) throw new CliError(err.message);
    throw err;
  } finally {
    await closeDeps(deps);
  }
}

/** Prints the result: JSON for scripts, or the human rendering. */
export function output(json: boolean, value: unknown, human: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${human()}\n`);
}

/** Plain fixed-width columns; good enough for a terminal, and --json exists for anything else. */
export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
}
