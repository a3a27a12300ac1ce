// Composition root: the one place where configuration becomes objects. Built once at start-up
// (main.ts) or per test file (test/support/app.ts); routes receive the result and build nothing.
import { mkdirSync } from 'node:fs';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { makeAuthenticate } from './billing/access/authenticate.ts';
import { makeCreateApiKey } from './billing/access/create-api-key.ts';
import { createKeyCache, type KeyCache } from './billing/access/key-cache.ts';
import { createKeyUsage, type KeyUsage } from './billing/access/key-usage.ts';
import { makeListApiKeys } from './billing/access/list-api-keys.ts';
import { makeRevokeApiKey } from './billing/access/revoke-api-key.ts';
import { makeCurrentKey } from './billing/access/current-key.ts';
import { makeCreateMerchant } from './billing/merchants/create-merchant.ts';
import { makeDeleteMerchant } from './billing/merchants/delete-merchant.ts';
import { makeGetMerchant } from './billing/merchants/get-merchant.ts';
import { makeListMerchants } from './billing/merchants/list-merchants.ts';
import { makeCreatePlan } from './billing/plans/create-plan.ts';
import { makeGetPlan } from './billing/plans/get-plan.ts';
import { makeArchivePlan } from './billing/plans/archive-plan.ts';
import { makeListMerchantPlans } from './billing/plans/list-plans.ts';
import { BillingError } from './billing/errors.ts';
import { systemClock } from './billing/clock.ts';
import type { Clock } from './billing/clock.ts';
import type { Repos, UnitOfWork } from './billing/unit-of-work.ts';
import { makeOpenSigningKey } from './billing/signing-keys/open-signing-key.ts';
import { makeRemoveSigningKey } from './billing/signing-keys/remove-signing-key.ts';
import { makeRotateKek } from './billing/signing-keys/rotate-kek.ts';
import { makeSetSigningKey } from './billing/signing-keys/set-signing-key.ts';
import type { SecretBox } from './billing/signing-keys/signing-keys-port.ts';
import { makeCreateSubscription } from './billing/subscriptions/create-subscription.ts';
import { makeGetSubscription } from './billing/subscriptions/get-subscription.ts';
import {
  makeCancelSubscription,
  makePauseSubscription,
  makeResumeSubscription,
} from './billing/subscriptions/subscription-state.ts';
import { makeListSubscriptions } from './billing/subscriptions/list-subscriptions.ts';
import { makeListPulls } from './billing/pulls/list-pulls.ts';
import { makeListMerchantPulls, makeMerchantDailyTotals } from './billing/pulls/list-merchant-pulls.ts';
import { makeCheckoutSubscription } from './billing/checkout/checkout-subscription.ts';
import { makeListWalletSubscriptions } from './billing/subscribers/list-wallet-subscriptions.ts';
import { walletSignatures } from './chain/wallet-signature.ts';
import { makeReconcilePending } from './billing/pulls/reconcile-pending.ts';
import { makeClientSigning } from './billing/pulls/client-signing.ts';
import { makeTriggerPull } from './billing/pulls/trigger-pull.ts';
import type { VaultGateway } from './billing/pulls/vault-gateway.ts';
import { createSorobanGateway } from './chain/soroban-gateway.ts';
import { makeCheckHealth } from './billing/collection/check-health.ts';
import { makeCollectDue } from './billing/collection/collect-due.ts';
import type { CollectorRound } from './jobs/collector.ts';
import { LedgerTimeClock } from './jobs/ledger-time-clock.ts';
import { createCursorCodec, type CursorCodec } from './schemas/cursors.ts';
import { createLogger } from './logger.ts';
import { createMetrics } from './metrics.ts';
import type { Metrics } from './metrics.ts';
import { createSecretBox } from './secrets/aes-gcm-box.ts';
import { makeAddChannels } from './billing/pulls/add-channels.ts';
import { createChannelAccounts } from './chain/channel-accounts.ts';
import { guardDb } from './storage/database-errors.ts';
import { migrate, pendingMigrations, shippedMigrations } from './storage/migrate.ts';
import { openDb } from './storage/db.ts';
import type { Db } from './storage/db.ts';
import { countPendingPulls } from './storage/repos/pull-stats.ts';
import { createRepos, createUnitOfWork } from './storage/repos/repos.ts';
import { unavailableDb } from './storage/unavailable-db.ts';
import { makeEmitEvent, makeEventRow, type EmitEvent, type EventRow } from './billing/events/emit-event.ts';
import { makeGetEvent } from './billing/events/get-event.ts';
import { makeListDeliveries } from './billing/events/list-deliveries.ts';
import { makeListEvents } from './billing/events/list-events.ts';
import { makeRedeliverEvent } from './billing/events/redeliver-event.ts';
import { makeIdempotentRequests } from './billing/idempotency/idempotent-request.ts';
import { makeCreateEndpoint } from './billing/webhooks/create-endpoint.ts';
import { makeDeleteEndpoint } from './billing/webhooks/delete-endpoint.ts';
import { makeDeliverWebhooks } from './billing/webhooks/deliver-webhook.ts';
import { makeGetEndpoint } from './billing/webhooks/get-endpoint.ts';
import { makeListEndpoints } from './billing/webhooks/list-endpoints.ts';
import { makeRotateSecret } from './billing/webhooks/rotate-secret.ts';
import type { WebhookSender } from './billing/webhooks/webhooks-port.ts';
import { eventPresenter } from './schemas/events.ts';
import { createHttpSender } from './webhooks/http-sender.ts';
import { standardSigner } from './webhooks/standard-signer.ts';
import { createUrlPolicy } from './webhooks/url-policy.ts';

export interface Verbs {
  createMerchant: ReturnType<typeof makeCreateMerchant>;
  getMerchant: ReturnType<typeof makeGetMerchant>;
  deleteMerchant: ReturnType<typeof makeDeleteMerchant>;
  createPlan: ReturnType<typeof makeCreatePlan>;
  getPlan: ReturnType<typeof makeGetPlan>;
  archivePlan: ReturnType<typeof makeArchivePlan>;
  createSubscription: ReturnType<typeof makeCreateSubscription>;
  getSubscription: ReturnType<typeof makeGetSubscription>;
  cancelSubscription: ReturnType<typeof makeCancelSubscription>;
  pauseSubscription: ReturnType<typeof makePauseSubscription>;
  resumeSubscription: ReturnType<typeof makeResumeSubscription>;
  listMerchants: ReturnType<typeof makeListMerchants>;
  listMerchantPlans: ReturnType<typeof makeListMerchantPlans>;
  listSubscriptions: ReturnType<typeof makeListSubscriptions>;
}

/** Events, webhook endpoints, their delivery, and Idempotency-Key. */
export interface EventVerbs {
  listEvents: ReturnType<typeof makeListEvents>;
  getEvent: ReturnType<typeof makeGetEvent>;
  listDeliveries: ReturnType<typeof makeListDeliveries>;
  redeliverEvent: ReturnType<typeof makeRedeliverEvent>;
  createEndpoint: ReturnType<typeof makeCreateEndpoint>;
  listEndpoints: ReturnType<typeof makeListEndpoints>;
  getEndpoint: ReturnType<typeof makeGetEndpoint>;
  deleteEndpoint: ReturnType<typeof makeDeleteEndpoint>;
  rotateSecret: ReturnType<typeof makeRotateSecret>;
  /** The delivery worker's steps (jobs/webhook-worker.ts runs them). */
  deliveries: ReturnType<typeof makeDeliverWebhooks>;
  idempotency: ReturnType<typeof makeIdempotentRequests>;
}

/** Keys and signing keys: who a request is, and the credentials merchants manage. */
export interface AccountVerbs {
  authenticate: ReturnType<typeof makeAuthenticate>;
  createApiKey: ReturnType<typeof makeCreateApiKey>;
  listApiKeys: ReturnType<typeof makeListApiKeys>;
  revokeApiKey: ReturnType<typeof makeRevokeApiKey>;
  currentKey: ReturnType<typeof makeCurrentKey>;
  setSigningKey: ReturnType<typeof makeSetSigningKey>;
  removeSigningKey: ReturnType<typeof makeRemoveSigningKey>;
  rotateKek: ReturnType<typeof makeRotateKek>;
}

export interface Deps {
  config: Config;
  logger: Logger;
  clock: Clock;
  /** Guarded: driver failures arrive as BillingError DATABASE / DATABASE_UNAVAILABLE; kind 'none' when unconfigured. */
  db: Db;
  repos: Repos;
  uow: UnitOfWork;
  verbs: Verbs;
  accountVerbs: AccountVerbs;
  /** The Soroban RPC client (the only SDK user) behind the billing port. */
  gateway: VaultGateway;
  pullVerbs: PullVerbs;
  /** The automatic collector's work (jobs/collector.ts runs it on a timer). */
  collection: CollectorRound;
  /** Prometheus registry and recorders (GET /metrics). */
  metrics: Metrics;
  /** Seals stored signing keys under SIGNING_KEY_ENCRYPTION_KEY (refuses without it). */
  box: SecretBox;
  keyCache: KeyCache;
  /** last_used_at, coalesced; flushed on a timer by main.ts and by closeDeps. */
  keyUsage: KeyUsage;
  /** Signs and checks listing cursors (CURSOR_SECRET). */
  cursors: CursorCodec;
  /** The outbox's one door: writes an event in the caller's transaction. */
  emit: EmitEvent;
  eventVerbs: EventVerbs;
  /** The hosted pages' keyless verbs: the checkout's subscription, a subscriber's own list. */
  checkoutVerbs: CheckoutVerbs;
  /** The schema against the migrations this build ships (GET /ready, `billing migrate`). */
  migrations: Migrations;
}

export interface CheckoutVerbs {
  checkoutSubscription: ReturnType<typeof makeCheckoutSubscription>;
  listWalletSubscriptions: ReturnType<typeof makeListWalletSubscriptions>;
}

/** The database schema against the migrations shipped with this build. */
export interface Migrations {
  /** Their names, in order (the files cannot change under a running process: read once). */
  shipped(): string[];
  /** Shipped migrations the database has not run yet. */
  pending(): Promise<string[]>;
  /** Runs the pending ones in order and returns their names. */
  apply(log?: (msg: string) => void): Promise<string[]>;
}

export function dbMigrations(db: Db): Migrations {
  let shipped: string[] | undefined;
  const list = () => {
    shipped ??= shippedMigrations();
    return shipped;
  };
  return { shipped: list, pending: () => pendingMigrations(db, list()), apply: (log) => migrate(db, log) };
}

export interface PullVerbs {
  triggerPull: ReturnType<typeof makeTriggerPull>;
  /** Client-side signing (POST /subscriptions/{id}/pulls/prepare, POST /pulls/{id}/submit). */
  preparePull: ReturnType<typeof makeClientSigning>['prepare'];
  submitPull: ReturnType<typeof makeClientSigning>['submit'];
  listPulls: ReturnType<typeof makeListPulls>;
  listMerchantPulls: ReturnType<typeof makeListMerchantPulls>;
  merchantDailyTotals: ReturnType<typeof makeMerchantDailyTotals>;
  reconcilePending: ReturnType<typeof makeReconcilePending>;
  /** `billing channels create`: new channel accounts funded on the network and stored sealed. */
  addChannels: ReturnType<typeof makeAddChannels>;
}

export interface DepsOverrides {
  clock?: Clock;
  logger?: Logger;
  /** The HTTP client of webhook deliveries (a test may slow it down or count its calls). */
  webhookSender?: WebhookSender;
  /** A stand-in for the chain (type-checked against the port), for tests that script outcomes. */
  gateway?: VaultGateway;
}

export async function openDatabase(config: Config): Promise<Db> {
  const target = config.database;
  if (target.kind === 'none') return unavailableDb();
  // PGlite creates its own directory but not the parents; "./data" must work on a fresh clone.
  if (target.kind === 'pglite' && target.dataDir) mkdirSync(target.dataDir, { recursive: true });
  return guardDb(await openDb(target));
}

export function buildVerbs(d: {
  repos: Repos;
  uow: UnitOfWork;
  clock: Clock;
  keyCache: KeyCache;
  emit: EmitEvent;
  eventRow: EventRow;
  config: Pick<Config, 'defaultTokenContractId' | 'dunningScheduleSeconds'>;
}): Verbs {
  const { repos, clock, uow, emit } = d;
  return {
    createMerchant: makeCreateMerchant({ uow, emit }),
    getMerchant: makeGetMerchant(repos),
    deleteMerchant: makeDeleteMerchant({ ...repos, keyCache: d.keyCache }),
    createPlan: makeCreatePlan({
      plans: repos.plans,
      eventRow: d.eventRow,
      defaultTokenContractId: d.config.defaultTokenContractId,
      retryScheduleSeconds: d.config.dunningScheduleSeconds,
    }),
    getPlan: makeGetPlan(repos),
    archivePlan: makeArchivePlan({ ...repos, clock }),
    createSubscription: makeCreateSubscription({
      subscriptions: repos.subscriptions,
      plans: repos.plans,
      eventRow: d.eventRow,
      clock,
    }),
    getSubscription: makeGetSubscription(repos),
    cancelSubscription: makeCancelSubscription({ uow, subscriptions: repos.subscriptions, clock, emit }),
    pauseSubscription: makePauseSubscription({ uow, subscriptions: repos.subscriptions, clock, emit }),
    resumeSubscription: makeResumeSubscription({ uow, subscriptions: repos.subscriptions, clock, emit }),
    listMerchants: makeListMerchants(repos),
    listMerchantPlans: makeListMerchantPlans(repos),
    listSubscriptions: makeListSubscriptions(repos),
  };
}

export function buildAccountVerbs(
  d: Pick<Deps, 'config' | 'clock' | 'repos' | 'uow' | 'emit' | 'box' | 'gateway' | 'keyCache' | 'keyUsage'>,
): AccountVerbs {
  const { repos, box, gateway, uow, emit } = d;
  const merchants = repos.merchants;
  return {
    authenticate: makeAuthenticate({
      apiKeys: repos.apiKeys,
      cache: d.keyCache,
      usage: d.keyUsage,
      clock: d.clock,
      operatorKey: d.config.adminApiKey,
    }),
    createApiKey: makeCreateApiKey({ merchants, uow, emit }),
    listApiKeys: makeListApiKeys(repos),
    revokeApiKey: makeRevokeApiKey({ merchants, uow, emit, cache: d.keyCache }),
    currentKey: makeCurrentKey({ merchants }),
    setSigningKey: makeSetSigningKey({ merchants, uow, emit, box, gateway }),
    removeSigningKey: makeRemoveSigningKey({ merchants, uow, emit }),
    rotateKek: makeRotateKek({ ...repos, box }),
  };
}

export async function buildDeps(config: Config, overrides: DepsOverrides = {}): Promise<Deps> {
  const logger = overrides.logger ?? createLogger({ level: config.logLevel });
  // CLOCK=ledger (refused in production by config.ts): the clock follows the network's ledger time.
  const ledgerClock = !overrides.clock && config.clock === 'ledger' ? new LedgerTimeClock() : undefined;
  const clock = overrides.clock ?? ledgerClock ?? systemClock;
  const db = await openDatabase(config);
  const repos = createRepos(db);
  const uow = createUnitOfWork(db);
  const metrics = createMetrics(db.kind === 'none' ? undefined : () => countPendingPulls(db));
  const box = createSecretBox(config.signingKeyEncryptionKeys);
  const gateway =
    overrides.gateway ??
    createSorobanGateway({
      rpcUrl: config.sorobanRpcUrl,
      networkPassphrase: config.networkPassphrase,
      pollIntervalMs: config.txPollIntervalMs,
      rpcTimeoutMs: config.rpcTimeoutMs,
      maxInclusionFee: BigInt(config.maxInclusionFee),
      feeSourceSecret: config.feeSourceSecret?.reveal(),
      queue: config.merchantQueue,
      onRpcCall: metrics.observeRpc,
      onFeeCharged: metrics.observeFee,
      // Channel accounts live in the database; without one the old merchant-as-source flow runs.
      channels: db.kind === 'none' ? undefined : { repo: repos.channels, open: (sealed, ctx) => box.open(sealed, ctx) },
    });
  if (gateway.channelStatus) metrics.watchChannels(() => gateway.channelStatus!());
  const keyCache = createKeyCache();
  const keyUsage = createKeyUsage(repos);
  const eventRow = makeEventRow(eventPresenter);
  const emit = makeEmitEvent(eventRow);
  const pullVerbs = buildPullVerbs({ config, clock, repos, uow, gateway, metrics, box, emit });
  const collection = buildCollection({ config, clock, repos, uow, gateway, pullVerbs, emit, ledgerClock });
  const accountVerbs = buildAccountVerbs({ config, clock, repos, uow, emit, box, gateway, keyCache, keyUsage });
  const cursors = createCursorCodec(config.cursorSecret);
  const verbs = buildVerbs({ repos, uow, clock, keyCache, emit, eventRow, config });
  const eventVerbs = buildEventVerbs({ config, repos, uow, box }, overrides.webhookSender);
  const checkoutVerbs: CheckoutVerbs = {
    checkoutSubscription: makeCheckoutSubscription({
      plans: repos.plans,
      gateway,
      contractId: config.contractId,
      createSubscription: verbs.createSubscription,
    }),
    listWalletSubscriptions: makeListWalletSubscriptions({
      walletSubscriptions: repos.walletSubscriptions,
      signatures: walletSignatures,
      clock,
    }),
  };
  return {
    config,
    logger,
    clock,
    db,
    repos,
    uow,
    verbs,
    accountVerbs,
    gateway,
    pullVerbs,
    collection,
    metrics,
    box,
    keyCache,
    keyUsage,
    cursors,
    emit,
    eventVerbs,
    checkoutVerbs,
    migrations: dbMigrations(db),
  };
}

/** A failure nobody caused (RPC down, fee above the cap, the merchant's trustline) holds a subscription back this long. */
const COLLECTOR_HOLD_MS = 60_000;
/** How often one subscription's health is read again while its due date approaches. */
const HEALTH_RECHECK_SECONDS = 3_600;

/** The collector's work for jobs/collector.ts: claim, collect one, check health. */
export function buildCollection(
  d: Pick<Deps, 'config' | 'clock' | 'repos' | 'uow' | 'gateway' | 'pullVerbs' | 'emit'> & {
    ledgerClock?: LedgerTimeClock;
  },
): CollectorRound {
  const { config, clock, repos, gateway } = d;
  const collect = makeCollectDue({
    uow: d.uow,
    pulls: repos.pulls,
    repos,
    gateway,
    clock,
    contractId: config.contractId,
    triggerPull: d.pullVerbs.triggerPull,
    emit: d.emit,
    holdMs: COLLECTOR_HOLD_MS,
  });
  // Longer than one collection can take (queue wait, confirmation wait, a few RPC calls), so a lease
  // lapses only for a replica that died.
  const leaseMs = config.txPollTimeoutMs + config.merchantQueue.maxWaitMs + 4 * config.rpcTimeoutMs;
  return {
    claim: (limit) => {
      const now = clock.now();
      return repos.collection.claimDue(now, new Date(now.getTime() + leaseMs), limit);
    },
    collect,
    checkHealth: makeCheckHealth({
      uow: d.uow,
      emit: d.emit,
      pulls: repos.pulls,
      repos,
      gateway,
      clock,
      contractId: config.contractId,
      leadSeconds: config.warningLeadSeconds,
      recheckSeconds: HEALTH_RECHECK_SECONDS,
    }),
    beforeRound: d.ledgerClock ? () => d.ledgerClock!.refresh(() => gateway.networkNow(true)) : undefined,
  };
}

export function buildEventVerbs(d: Pick<Deps, 'config' | 'repos' | 'uow' | 'box'>, sender?: WebhookSender): EventVerbs {
  const { repos, box } = d;
  const w = d.config.webhooks;
  const signer = standardSigner;
  return {
    listEvents: makeListEvents(repos),
    getEvent: makeGetEvent(repos),
    listDeliveries: makeListDeliveries(repos),
    redeliverEvent: makeRedeliverEvent(repos),
    createEndpoint: makeCreateEndpoint({ ...repos, box, signer, urlPolicy: createUrlPolicy(w.publicTargetsOnly) }),
    listEndpoints: makeListEndpoints(repos),
    getEndpoint: makeGetEndpoint(repos),
    deleteEndpoint: makeDeleteEndpoint(repos),
    rotateSecret: makeRotateSecret({ ...repos, box, signer }),
    deliveries: makeDeliverWebhooks({
      uow: d.uow,
      webhooks: repos.webhooks,
      box,
      signer,
      sender: sender ?? createHttpSender({ blockPrivate: w.publicTargetsOnly }),
      policy: {
        timeoutMs: w.timeoutMs,
        baseMs: w.retryBaseMs,
        maxDelayMs: w.retryMaxDelayMs,
        retryForMs: w.retryForMs,
        disableAfterMs: w.disableAfterMs,
      },
    }),
    // Request HMACs under CURSOR_SECRET when replicas share one, else under the database's own salt.
    idempotency: makeIdempotentRequests({ idempotency: repos.idempotency, secret: d.config.cursorSecret }),
  };
}

export function buildPullVerbs(
  d: Pick<Deps, 'config' | 'clock' | 'repos' | 'uow' | 'gateway' | 'box' | 'emit'> & { metrics?: Metrics },
): PullVerbs {
  const shared = {
    uow: d.uow,
    pulls: d.repos.pulls,
    gateway: d.gateway,
    clock: d.clock,
    contractId: d.config.contractId,
    emit: d.emit,
  };
  const openSigningKey = makeOpenSigningKey({ signingKeys: d.repos.signingKeys, box: d.box, gateway: d.gateway });
  const pullDeps = {
    ...shared,
    pollTimeoutMs: d.config.txPollTimeoutMs,
    openSigningKey,
    preparedPulls: d.repos.preparedPulls,
  };
  const triggerPull = makeTriggerPull(pullDeps);
  const clientSigning = makeClientSigning({ ...pullDeps, preparedTtlSeconds: d.config.preparedPullTtlSeconds });
  return {
    preparePull: clientSigning.prepare,
    submitPull: d.metrics ? countedPulls(clientSigning.submit, d.metrics) : clientSigning.submit,
    triggerPull: d.metrics ? countedPulls(triggerPull, d.metrics) : triggerPull,
    listPulls: makeListPulls(d.repos),
    addChannels: makeAddChannels({
      channels: d.repos.channels,
      accounts: createChannelAccounts(d.config.sorobanRpcUrl),
      box: d.box,
    }),
    listMerchantPulls: makeListMerchantPulls(d.repos),
    merchantDailyTotals: makeMerchantDailyTotals({ ...d.repos, clock: d.clock }),
    reconcilePending: makeReconcilePending({ ...shared, roundLimitMs: d.config.reconcileRoundLimitMs }),
  };
}

/** Every trigger-pull outcome, or the code of the error that refused it, counted once. */
function countedPulls<A>(
  triggerPull: (args: A) => ReturnType<PullVerbs['triggerPull']>,
  metrics: Metrics,
): (args: A) => ReturnType<PullVerbs['triggerPull']> {
  return async (args) => {
    try {
      const result = await triggerPull(args);
      metrics.countPull(result.kind);
      return result;
    } catch (err) {
      metrics.countPull(err instanceof BillingError ? err.code.toLowerCase() : 'error');
      throw err;
    }
  };
}

export async function closeDeps(deps: Deps): Promise<void> {
  // The last uses of keys, before the pool goes; a database already gone just loses them.
  await deps.keyUsage.flush().catch((err: unknown) => deps.logger.warn({ err }, 'could not record API key use'));
  await deps.db.close();
}
