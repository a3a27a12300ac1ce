// The storage edge of error handling: whatever the driver throws leaves storage as a BillingError,
// so verbs and routes never inspect driver error types. Two kinds (product.md, "database messages"):
//  - the server refused a statement (a constraint, a bad value): DATABASE with the server's own
//    message, which the spec wants passed through on 500;
//  - the connection itself failed (refused, timed out, authentication, unknown host or database,
//    server shutting down, a closed pool): DATABASE_UNAVAILABLE, answered "Database unavailable".
//    Those messages name hosts, addresses and users: the error handler logs them, no client sees them.
import { BillingError, DATABASE_UNAVAILABLE_MESSAGE } from '../billing/errors.ts';
import type { Db, Queryable } from './db.ts';

/**
 * SQLSTATEs about the connection rather than the statement: class 08 (connection exception),
 * 28 (authorization), 3D000 (no such database), 53300 (too many connections), 57P01-57P03
 * (server shutting down or starting). 57014 (a cancelled statement, e.g. a statement timeout) is
 * about the statement and passes through.
 */
const CONNECTION_STATE = /^(08|28)|^(3D000|53300|57P0[1-3])$/;

export function toDatabaseError(err: unknown): BillingError {
  if (err instanceof BillingError) return err;
  const e = err as { message?: unknown; severity?: unknown } | null;
  const message = typeof e?.message === 'string' && e.message !== '' ? e.message : undefined;
  // Only a message from the server has a severity (node-postgres and PGlite alike). Anything else
  // means the server never answered: a socket error (ECONNREFUSED, ENOTFOUND, EPIPE, an
  // AggregateError for several addresses), a pool timeout, or a closed pool or PGlite.
  const fromServer = typeof e?.severity === 'string';
  const state = sqlState(err);
  if (!fromServer || state === undefined || CONNECTION_STATE.test(state) || message === undefined) {
    return new BillingError('DATABASE_UNAVAILABLE', DATABASE_UNAVAILABLE_MESSAGE, undefined, { cause: err });
  }
  return new BillingError('DATABASE', message, undefined, { cause: err });
}

/** The SQLSTATE of a database error (e.g. '23505' unique violation), for callers that must tell them apart. */
export function sqlState(err: unknown): string | undefined {
  const cause = err instanceof BillingError ? err.cause : err;
  const code = (cause as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

function guardQueryable(q: Queryable): Queryable {
  return {
    // The embedded database's read cache stays reachable through the guard (read-cache.ts).
    readCache: q.readCache,
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
    readCache: db.readCache,
    query: guardQueryable(db).query,
    transaction: (fn) => heldConnection((inner) => db.transaction(inner), fn),
    session: (fn) => heldConnection((inner) => db.session(inner), fn),
    close: () => db.close(),
  };
}
