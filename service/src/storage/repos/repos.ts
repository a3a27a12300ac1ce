// All repositories over one Queryable, and the unit of work that rebinds them to a transaction.
import type { Repos, UnitOfWork } from '../../billing/ports.ts';
import type { Db, Queryable } from '../db.ts';
import { createApiKeysRepo } from './api-keys-repo.ts';
import { createCollectionRepo } from './collection-repo.ts';
import { createMerchantsRepo } from './merchants-repo.ts';
import { createPlansRepo } from './plans-repo.ts';
import { createPullsRepo } from './pulls-repo.ts';
import { createSigningKeysRepo } from './signing-keys-repo.ts';
import { createSubscriptionsRepo } from './subscriptions-repo.ts';

export function createRepos(db: Queryable): Repos {
  return {
    merchants: createMerchantsRepo(db),
    plans: createPlansRepo(db),
    subscriptions: createSubscriptionsRepo(db),
    pulls: createPullsRepo(db),
    apiKeys: createApiKeysRepo(db),
    signingKeys: createSigningKeysRepo(db),
    collection: createCollectionRepo(db),
  };
}

export function createUnitOfWork(db: Db): UnitOfWork {
  return { run: (fn) => db.transaction((tx) => fn(createRepos(tx))) };
}
