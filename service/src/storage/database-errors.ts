// The storage edge of error handling: whatever the driver throws (a constraint, a lost connection,
// a closed PGlite) leaves storage as BillingError('DATABASE', <the driver's own message>), which the
// spec wants passed through on 500. Verbs and routes therefore never inspect driver error types.
import { BillingError } from '../billing/errors.ts';
import type { Db, Queryable } from './db.ts';

export function toDatabaseError(err: unknown): BillingError {
  if (err instanceof BillingError) return err;
  const e = err as { message?: unknown; code?: unknown } | null;
  const message = typeof e?.message === 'string' && e.message !== '' ? e.message : undefined;
  // Node reports a refused connection to several addresses as an AggregateError with no message.
  const code = typeof e?.code === 'string' ? e.code : undefined;
  return new BillingError('DATABASE', message ?? code ?? 'Database error', undefined, { cause: err });
}

/** The SQLSTATE of a database error (e.g. '23505' unique violation), for callers that must tell them apart. */
export function sqlState(err: unknown): string | undefined {
  const cause = err instanceof BillingError ? err.cause : err;
  const code = (cause as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

function guardQueryable(q: Queryable): Queryable {
  return {
    async query(text, params, name) {
      try {
        return await q.query(text, params, name);
      } catch (err) {
        throw toDatabaseError(err);
      }
    },
  };
}

/**
 * Runs `open(inner)` where inner calls fn on a guarded connection. Errors fn throws are the
 * caller's (already wrapped if they came from a query) and pass unchanged; anything else came
 * from BEGIN / COMMIT / connecting, i.e. from the database.
 */
async function heldConnection<T>(
  open: (inner: (q: Queryable) => Promise<T>) => Promise<T>,
  fn: (q: Queryable) => Promise<T>,
): Promise<T> {
  const thrownByFn = new WeakSet<object>();
  try {
    return await open(async (q) => {
      try {
        return await fn(guardQueryable(q));
      } catch (err) {
        if (typeof err === 'object' && err !== null) thrownByFn.add(err);
        throw err;
      }
    });
  } catch (err) {
    if (typeof err === 'object' && err !== null && thrownByFn.has(err)) throw err;
    throw toDatabaseError(err);
  }
}

/** Wraps a Db so every driver failure becomes a DATABASE BillingError. */
export function guardDb(db: Db): Db {
  return {
    kind: db.kind,
    query: guardQueryable(db).query,
    transaction: (fn) => heldConnection((inner) => db.transaction(inner), fn),
    session: (fn) => heldConnection((inner) => db.session(inner), fn),
    close: () => db.close(),
  };
}
