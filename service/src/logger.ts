// The service's pino logger (Fastify logs through it). No log line may hold a secret: the keys
// `merchant_secret`, `secret`, `api_key` and `authorization` are censored wherever they appear,
// and any Stellar secret seed (S + 55 base32 characters) or API key (bk_…) is masked inside strings
// and error messages, whatever field carries it. Request bodies and headers are never logged: the
// request log line has method, path (no query), status and time.
import pino from 'pino';
import type { DestinationStream, Logger } from 'pino';
import { API_KEY_PATTERN } from './billing/access/key-material.ts';

const SECRET_SEED = /S[A-Z2-7]{55}/g;
const SECRET_TEXT = new RegExp(`${SECRET_SEED.source}|${API_KEY_PATTERN.source}`, 'g');
const SECRET_FIELDS = new Set(['merchant_secret', 'secret', 'api_key', 'authorization']);
const MASK = '[REDACTED]';

export function scrubSecrets(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.replace(SECRET_TEXT, MASK);
  if (value === null || typeof value !== 'object' || depth > 8) return value;
  if (value instanceof Error) {
    // Errors are copied only when they actually carry a seed, so their type survives otherwise.
    const text = `${value.message}\n${value.stack ?? ''}`;
    if (!new RegExp(SECRET_TEXT.source).test(text)) return value;
    return { type: value.name, message: scrubSecrets(value.message), stack: scrubSecrets(value.stack) };
  }
  if (Array.isArray(value)) return value.map((v) => scrubSecrets(v, depth + 1));
  // Class instances (Fastify's request and reply) are left to their serializers.
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = SECRET_FIELDS.has(k) ? MASK : scrubSecrets(v, depth + 1);
  return out;
}

/**
 * Errors are logged as type, message, stack and the few fields that explain them. Whatever else an
 * error object carries stays out: HTTP client errors hold their whole request (a hosted RPC's URL
 * with its API key, headers, body), database errors the query's parameters.
 */
export function serializeError(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  const e = err as Error & { code?: unknown; status?: unknown; method?: unknown; cause?: unknown };
  const out: Record<string, unknown> = { type: e.name, message: e.message, stack: e.stack };
  for (const key of ['code', 'status', 'method'] as const) {
    if (typeof e[key] === 'string' || typeof e[key] === 'number') out[key] = e[key];
  }
  if (e.cause instanceof Error) out.cause = serializeError(e.cause);
  return out;
}

export interface LoggerOptions {
  level: string;
  /** Where lines go; stdout when omitted. Tests pass a stream to read what was logged. */
  destination?: DestinationStream;
}

export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      level: options.level,
      serializers: { err: serializeError, error: serializeError },
      // One pass over every logged value: the key at any depth and seeds in any string. (pino's
      // path-based `redact` would only add a second, narrower walk per line.)
      hooks: {
        logMethod(args, method) {
          return method.apply(this, args.map((a) => scrubSecrets(a)) as Parameters<typeof method>);
        },
      },
    },
    options.destination ?? bufferedStdout(),
  );
}

/**
 * stdout written in blocks of at least 4 KiB, flushed every 250 ms and on exit: a per-request log
 * line then costs no write() of its own (a synchronous write per line took ~15% of a GET's CPU).
 * On exit the buffer is flushed; only a killed process (SIGKILL) can lose its last 250 ms of lines.
 */
function bufferedStdout(): DestinationStream {
  const out = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  setInterval(() => out.flush(), 250).unref();
  process.once('exit', () => {
    try {
      out.flushSync();
    } catch {
      // Not open yet or already closed: nothing buffered that could still be written.
    }
  });
  return out;
}
