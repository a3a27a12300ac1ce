// Composition root: the one place where configuration becomes objects. Built once at start-up
// (main.ts) or per test file (test/support/app.ts); routes receive the result and build nothing.
import { mkdirSync } from 'node:fs';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { makeCreateMerchant } from './billing/merchants/create-merchant.ts';
import { makeDeleteMerchant } from './billing/merchants/delete-merchant.ts';
import { makeGetMerchant } from './billing/merchants/get-merchant.ts';
import { makeListMerchants } from './billing/merchants/list-merchants.ts';
import { makeCreatePlan } from './billing/plans/create-plan.ts';
import { makeGetPlan } from './billing/plans/get-plan.ts';
import { makeListMerchantPlans } from './billing/plans/list-plans.ts';
import { BillingError } from './billing/errors.ts';
import { systemClock } from './billing/ports.ts';
import type { Clock, Repos, UnitOfWork } from './billing/ports.ts';
import { makeCreateSubscription } from './billing/subscriptions/create-subscription.ts';
import { makeGetSubscription } from './billing/subscriptions/get-subscription.ts';
import { makeListSubscriptions } from './billing/subscriptions/list-subscriptions.ts';
import { makeListPulls } from './billing/pulls/list-pulls.ts';
import { makeReconcilePending } from './billing/pulls/reconcile-pending.ts';
import { makeTriggerPull } from './billing/pulls/trigger-pull.ts';
import type { VaultGateway } from './billing/pulls/vault-gateway.ts';
import { createSorobanGateway } from './chain/soroban-gateway.ts';
import { createLogger } from './logger.ts';
import { createMetrics } from './metrics.ts';
import type { Metrics } from './metrics.ts';
import { guardDb } from './storage/database-errors.ts';
import { openDb } from './storage/db.ts';
import type { Db } from './storage/db.ts';
import { countPendingPulls } from './storage/repos/pull-stats.ts';
import { createRepos, createUnitOfWork } from './storage/repos/repos.ts';
import { unavailableDb } from './storage/unavailable-db.ts';

export interface Verbs {
  createMerchant: ReturnType<typeof makeCreateMerchant>;
  getMerchant: ReturnType<typeof makeGetMerchant>;
  deleteMerchant: ReturnType<typeof makeDeleteMerchant>;
  createPlan: ReturnType<typeof makeCreatePlan>;
  getPlan: ReturnType<typeof makeGetPlan>;
  createSubscription: ReturnType<typeof makeCreateSubscription>;
  getSubscription: ReturnType<typeof makeGetSubscription>;
  listMerchants: ReturnType<typeof makeListMerchants>;
  listMerchantPlans: ReturnType<typeof makeListMerchantPlans>;
  listSubscriptions: ReturnType<typeof makeListSubscriptions>;
}

export interface Deps {
  config: Config;
  logger: Logger;
  clock: Clock;
  /** Guarded: driver failures arrive as BillingError('DATABASE'); kind 'none' when unconfigured. */
  db: Db;
  repos: Repos;
  uow: UnitOfWork;
  verbs: Verbs;
  /** The Soroban RPC client (the only SDK user) behind the billing port. */
  gateway: VaultGateway;
  pullVerbs: PullVerbs;
  /** Prometheus registry and recorders (GET /metrics). */
  metrics: Metrics;
}

export interface PullVerbs {
  triggerPull: ReturnType<typeof makeTriggerPull>;
  listPulls: ReturnType<typeof makeListPulls>;
  reconcilePending: ReturnType<typeof makeReconcilePending>;
}

export interface DepsOverrides {
  clock?: Clock;
  logger?: Logger;
}

export async function openDatabase(config: Config): Promise<Db> {
  const target = config.database;
  if (target.kind === 'none') return unavailableDb();
  // PGlite creates its own directory but not the parents; "./data" must work on a fresh clone.
  if (target.kind === 'pglite' && target.dataDir) mkdirSync(target.dataDir, { recursive: true });
  return guardDb(await openDb(target));
}

export function buildVerbs(repos: Repos, clock: Clock, config: Pick<Config, 'defaultTokenContractId'>): Verbs {
  return {
    createMerchant: makeCreateMerchant(repos),
    getMerchant: makeGetMerchant(repos),
    deleteMerchant: makeDeleteMerchant(repos),
    createPlan: makeCreatePlan({ ...repos, defaultTokenContractId: config.defaultTokenContractId }),
    getPlan: makeGetPlan(repos),
    createSubscription: makeCreateSubscription({ ...repos, clock }),
    getSubscription: makeGetSubscription(repos),
    listMerchants: makeListMerchants(repos),
    listMerchantPlans: makeListMerchantPlans(repos),
    listSubscriptions: makeListSubscriptions(repos),
  };
}

export async function buildDeps(config: Config, overrides: DepsOverrides = {}): Promise<Deps> {
  const logger = overrides.logger ?? createLogger({ level: config.logLevel });
  const clock = overrides.clock ?? systemClock;
  const db = await openDatabase(config);
  const repos = createRepos(db);
  const uow = createUnitOfWork(db);
  const metrics = createMetrics(db.kind === 'none' ? undefined : () => countPendingPulls(db));
  const gateway = createSorobanGateway({
    rpcUrl: config.sorobanRpcUrl,
    networkPassphrase: config.networkPassphrase,
    pollIntervalMs: config.txPollIntervalMs,
    rpcTimeoutMs: config.rpcTimeoutMs,
    maxInclusionFee: BigInt(config.maxInclusionFee),
    feeSourceSecret: config.feeSourceSecret?.reveal(),
    queue: config.merchantQueue,
    onRpcCall: metrics.observeRpc,
  });
  const pullVerbs = buildPullVerbs({ config, clock, repos, uow, gateway, metrics });
  return { config, logger, clock, db, repos, uow, verbs: buildVerbs(repos, clock, config), gateway, pullVerbs, metrics };
}

export function buildPullVerbs(d: Pick<Deps, 'config' | 'clock' | 'repos' | 'uow' | 'gateway'> & { metrics?: Metrics }): PullVerbs {
  const shared = { uow: d.uow, pulls: d.repos.pulls, gateway: d.gateway, clock: d.clock, contractId: d.config.contractId };
  const triggerPull = makeTriggerPull({ ...shared, pollTimeoutMs: d.config.txPollTimeoutMs });
  return {
    triggerPull: d.metrics ? countedPulls(triggerPull, d.metrics) : triggerPull,
    listPulls: makeListPulls(d.repos),
    reconcilePending: makeReconcilePending({ ...shared, roundLimitMs: d.config.reconcileRoundLimitMs }),
  };
}

/** Every trigger-pull outcome, or the code of the error that refused it, counted once. */
function countedPulls(triggerPull: PullVerbs['triggerPull'], metrics: Metrics): PullVerbs['triggerPull'] {
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
  await deps.db.close();
}
