// What every data command of the CLI runs in: the server's own configuration (the environment),
// composition root and verbs, as the `system` actor. Logs go to stderr so stdout stays the
// command's output (human text or JSON for scripts).
import { Option, type Command } from 'commander';
import pino from 'pino';
import type { z } from 'zod';
import { systemCtx } from '../billing/context.ts';
import type { Ctx } from '../billing/context.ts';
import { BillingError } from '../billing/errors.ts';
import { ConfigError, loadConfig } from '../config.ts';
import type { Config } from '../config.ts';
import { buildDeps, closeDeps } from '../deps.ts';
import type { Deps } from '../deps.ts';
import type { PageKey, PageRequest } from '../billing/paging.ts';
import { createCursorCodec, pageOf, type ListOrder } from '../schemas/cursors.ts';
import { firstIssueMessage } from '../schemas/invalid-input.ts';
import { createLogger } from '../logger.ts';

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

export async function withDeps<T>(
  job: string,
  fn: (deps: Deps, ctx: Ctx) => Promise<T>,
  opts: { needsSchema?: boolean } = {},
): Promise<T> {
  const config = cliConfig();
  if (config.database.kind === 'none')
    throw new CliError('No database: set DATABASE_URL (NODE_ENV=production has no embedded default)');
  const logger = createLogger({
    level: config.logLevel === 'info' ? 'warn' : config.logLevel,
    destination: pino.destination({ dest: 2, sync: true }),
  });
  const deps = await buildDeps(config, { logger });
  try {
    if (opts.needsSchema !== false) {
      const pending = await deps.migrations.pending();
      if (pending.length > 0)
        throw new CliError(
          `The database schema is behind (${pending.join(', ')} not applied): run \`billing migrate\` first`,
        );
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
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
}

export const json = () => new Option('--json', 'print JSON instead of text');

/** The same schemas as the HTTP API: the same rules and the same "Invalid input on …" texts. */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new CliError(firstIssueMessage(parsed.error));
  return parsed.data;
}

export const pageOptions = (cmd: Command) =>
  cmd
    .option('--limit <n>', 'rows per page (1-500)', '50')
    .option('--cursor <cursor>', 'next_cursor printed by the previous page');

export const moreHint = (next: string | null) => (next ? `\nmore: --cursor ${next}` : '');

/**
 * The CLI's cursors travel from one invocation to the next, so without CURSOR_SECRET they are
 * signed with a fixed secret rather than a random one per process. That costs nothing: they only
 * pass through the operator's own shell, and the operator can read the database anyway. (The
 * HTTP API's cursors, without CURSOR_SECRET, use a random secret per process.)
 */
const CLI_CURSOR_SECRET = 'billing-cli: cursors between invocations of one operator';

export function cliCursors() {
  const codec = createCursorCodec(cliConfig().cursorSecret ?? CLI_CURSOR_SECRET);
  return {
    encode: (order: ListOrder, key: PageKey) => codec.encode(order, key),
    page(q: { limit: number; cursor?: string; order: ListOrder }): PageRequest {
      try {
        return pageOf(codec, q);
      } catch (err) {
        throw new CliError((err as Error).message);
      }
    },
  };
}
