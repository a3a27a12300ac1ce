// All repositories over one Queryable, and the unit of work that rebinds them to a transaction.
import type { Repos, UnitOfWork } from '../../billing/unit-of-work.ts';
import type { Db, Queryable } from '../db.ts';
import { createApiKeysRepo } from './api-keys-repo.ts';
import { createChannelsRepo } from './channels-repo.ts';
import { createCollectionRepo } from './collection-repo.ts';
import { createMerchantsRepo } from './merchants-repo.ts';
import { createPlansRepo } from './plans-repo.ts';
import { createPreparedPullsRepo } from './prepared-pulls-repo.ts';
import { createPullsRepo } from './pulls-repo.ts';
import { createMerchantPullsRepo } from './merchant-pulls-repo.ts';
import { createWalletSubscriptionsRepo } from './wallet-subscriptions-repo.ts';
import { createSigningKeysRepo } from './signing-keys-repo.ts';
import { createSubscriptionsRepo } from './subscriptions-repo.ts';
import { createEventsRepo } from './events-repo.ts';
import { createIdempotencyRepo } from './idempotency-repo.ts';
import { createWebhooksRepo } from './webhooks-repo.ts';

export function createRepos(db: Queryable): Repos {
  return {
    merchants: createMerchantsRepo(db),
    plans: createPlansRepo(db),
    subscriptions: createSubscriptionsRepo(db),
    pulls: createPullsRepo(db),
    merchantPulls: createMerchantPullsRepo(db),
    walletSubscriptions: createWalletSubscriptionsRepo(db),
    apiKeys: createApiKeysRepo(db),
    signingKeys: createSigningKeysRepo(db),
    collection: createCollectionRepo(db),
    channels: createChannelsRepo(db),
    preparedPulls: createPreparedPullsRepo(db),
    events: createEventsRepo(db),
    webhooks: createWebhooksRepo(db),
    idempotency: createIdempotencyRepo(db),
  };
}

export function createUnitOfWork(db: Db): UnitOfWork {
  return { run: (fn) => db.transaction((tx) => fn(createRepos(tx))) };
}
