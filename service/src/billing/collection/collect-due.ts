// The collector's work on one due subscription. A cancel at period end whose instant has come is
// applied; otherwise the cycle (or retry) is collected through the same verb as /trigger-pull —
// same exactly-once rules, same pull history — after a pre-flight read that spends no fee. A
// failure is a dunning try, the end of dunning, or a hold, by its cause (dunning.ts).
import { systemCtx } from '../context.ts';
import type { EmitEvent } from '../events/emit-event.ts';
import { BillingError } from '../errors.ts';
import type { Clock } from '../clock.ts';
import type { Repos, UnitOfWork } from '../unit-of-work.ts';
import type { PullContext as Context, PullsRepo } from '../pulls/pulls-port.ts';
import { dunningPlanOf, statusEvent } from '../pulls/settle-attempt.ts';
import type { makeTriggerPull } from '../pulls/trigger-pull.ts';
import { PullRejection, type VaultGateway } from '../pulls/vault-gateway.ts';
import { applyDueCancel } from '../subscriptions/subscription-state.ts';
import { dunningStep, failureKind } from './dunning.ts';
import { preflightProblem, type Problem } from './preflight.ts';

export type CollectOutcome = 'canceled' | 'not_due' | 'confirmed' | 'failed' | 'pending' | 'try_failed' | 'held';

export interface CollectDeps {
  uow: UnitOfWork;
  pulls: PullsRepo;
  repos: Pick<Repos, 'collection'>;
  emit: EmitEvent;
  gateway: Pick<VaultGateway, 'inspect'>;
  clock: Clock;
  contractId: string | undefined;
  triggerPull: ReturnType<typeof makeTriggerPull>;
  /** How long a failure nobody caused holds the subscription back. */
  holdMs: number;
}

const CTX = systemCtx('collector');

export function makeCollectDue(deps: CollectDeps) {
  const { pulls, clock } = deps;

  async function failed(ctx: Context, problem: Problem): Promise<CollectOutcome> {
    const now = clock.now();
    const code = problem.code;
    const kind = problem.subscriberLeft ? 'leave' : failureKind(code);
    if (kind === 'hold') {
      await deps.repos.collection.hold(ctx.subscriptionId, new Date(now.getTime() + deps.holdMs));
      return 'held';
    }
    await deps.uow.run(async (tx) => {
      await tx.pulls.insertSkipped({
        subscription_id: ctx.subscriptionId,
        merchant_id: ctx.merchantId,
        amount: ctx.tokenAmount,
        code,
        error: problem.message,
        now,
      });
      const change = await tx.pulls.applyDunning(
        ctx.subscriptionId,
        dunningStep(dunningPlanOf(ctx), ctx.dunningTries, kind, now),
        now,
      );
      await statusEvent(deps, tx, CTX.actor, change);
    });
    return 'try_failed';
  }

  async function collect(subscriptionId: string): Promise<CollectOutcome> {
    const ctx = await pulls.loadContext(subscriptionId);
    const now = clock.now();
    if (!ctx || !deps.contractId) return 'not_due';
    const status = await applyDueCancel(
      deps,
      { id: subscriptionId, status: ctx.subscriptionStatus, cancelAt: ctx.cancelAt },
      now,
      CTX.actor,
    );
    if (status === 'canceled' && ctx.subscriptionStatus !== 'canceled') return 'canceled';
    const live = ctx.subscriptionStatus === 'active' || ctx.subscriptionStatus === 'past_due';
    if (!live || ctx.merchantDeleted || ctx.nextBillingDate.getTime() > now.getTime()) return 'not_due';

    // An attempt in flight is resolved first (by the pull verb), never pre-flighted: a pull that
    // has just landed has already spent the allowance the pre-flight would read.
    if (await pulls.findPending(subscriptionId)) return pull(ctx);

    let inspection: Awaited<ReturnType<typeof deps.gateway.inspect>>;
    try {
      inspection = await deps.gateway.inspect({
        user: ctx.customerWallet,
        merchant: ctx.merchantWallet,
        contractId: deps.contractId,
      });
    } catch (err) {
      if (err instanceof PullRejection)
        return failed(ctx, { code: err.code, message: err.message, subscriberLeft: err.subscriberLeft });
      throw err;
    }
    const problem = preflightProblem(ctx, inspection, ctx.collectedBefore);
    if (problem) return failed(ctx, problem);
    return pull(ctx);
  }

  async function pull(ctx: Context): Promise<CollectOutcome> {
    const subscriptionId = ctx.subscriptionId;
    try {
      const result = await deps.triggerPull({
        ctx: CTX,
        input: { subscription_id: subscriptionId, origin: 'collector' },
      });
      return result.kind; // a failure on chain was applied as a dunning try when it settled
    } catch (err) {
      if (!(err instanceof BillingError)) throw err;
      const code = typeof err.details?.code === 'string' ? err.details.code : err.code.toLowerCase();
      const subscriberLeft = err.cause instanceof PullRejection && err.cause.subscriberLeft;
      return failed(ctx, { code, message: err.message, subscriberLeft });
    }
  }

  return async function collectDue(subscriptionId: string): Promise<CollectOutcome> {
    try {
      return await collect(subscriptionId);
    } finally {
      await deps.repos.collection.release(subscriptionId).catch(() => undefined);
    }
  };
}
