// Every repository, and the unit of work that binds them to one transaction. storage/repos/repos.ts
// implements both; deps.ts wires them; verbs take only the slice they use (Pick<...>).
import type { MerchantsRepo } from './merchants/merchants-port.ts';
import type { PlansRepo } from './plans/plans-port.ts';
import type { SubscriptionsRepo } from './subscriptions/subscriptions-port.ts';
import type { ApiKeysRepo } from './access/api-keys-port.ts';
import type { CollectionRepo } from './collection/collection-port.ts';
import type { PullsRepo } from './pulls/pulls-port.ts';
import type { MerchantPullsRepo } from './pulls/merchant-pulls-port.ts';
import type { WalletSubscriptionsRepo } from './subscribers/wallet-subscriptions-port.ts';
import type { ChannelsRepo } from './pulls/channels-port.ts';
import type { PreparedPullsRepo } from './pulls/prepared-pulls-port.ts';
import type { SigningKeysRepo } from './signing-keys/signing-keys-port.ts';
import type { EventsRepo } from './events/events-port.ts';
import type { IdempotencyRepo } from './idempotency/idempotency-port.ts';
import type { WebhooksRepo } from './webhooks/webhooks-port.ts';

export interface Repos {
  merchants: MerchantsRepo;
  plans: PlansRepo;
  subscriptions: SubscriptionsRepo;
  pulls: PullsRepo;
  /** A merchant's pulls across its subscriptions, and its daily totals. */
  merchantPulls: MerchantPullsRepo;
  /** A subscriber's subscriptions across merchants (/manage). */
  walletSubscriptions: WalletSubscriptionsRepo;
  apiKeys: ApiKeysRepo;
  signingKeys: SigningKeysRepo;
  collection: CollectionRepo;
  /** Channel accounts and their leases (issue 14). */
  channels: ChannelsRepo;
  /** Client-side signing's prepared pulls. */
  preparedPulls: PreparedPullsRepo;
  /** The outbox: written only through billing/events/emit-event.ts. */
  events: EventsRepo;
  webhooks: WebhooksRepo;
  idempotency: IdempotencyRepo;
}

/** Runs fn with repositories bound to one transaction: all of fn's writes commit or none do. */
export interface UnitOfWork {
  run<T>(fn: (repos: Repos) => Promise<T>): Promise<T>;
}
