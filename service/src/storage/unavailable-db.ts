// The database handle when none is configured (NODE_ENV=production without DATABASE_URL). The
// service still starts, so that validation errors, /health and misconfiguration are all visible
// over HTTP; anything that reaches the database fails with the spec's 500 message.
import { BillingError, DB_NOT_INITIALIZED_MESSAGE } from '../billing/errors.ts';
import type { Db } from './db.ts';

export function unavailableDb(): Db {
  const fail = async (): Promise<never> => {
    throw new BillingError('DB_NOT_INITIALIZED', DB_NOT_INITIALIZED_MESSAGE);
  };
  return {
    kind: 'none',
    query: fail,
    transaction: fail,
    session: fail,
    close: async () => {},
  };
}
