// POST /trigger-pull: collect one billing cycle exactly once.
//   checks in the spec's order → an attempt already in flight is resolved first (never a second
//   transaction beside it) → not before next_billing_date → build, simulate, sign → record the
//   attempt and commit → send → wait for the outcome → apply it once.
// The signing key is merchant_secret when the request has one (the spec's flow, unchanged), else
// the merchant's stored signing key, for a caller with an API key (unattended collection).
import { sees } from '../access/scope.ts';
import { rawUnits } from '../amounts.ts';
import type { Actor, Ctx } from '../context.ts';
import type { EmitEvent } from '../events/emit-event.ts';
import { BillingError } from '../errors.ts';
import type { Clock } from '../clock.ts';
import type { UnitOfWork } from '../unit-of-work.ts';
import { applyDueCancel, canceledError, pausedError } from '../subscriptions/subscription-state.ts';
import type { PreparedPullsRepo } from './prepared-pulls-port.ts';
import type { PullContext, PullOrigin, PullsRepo } from './pulls-port.ts';
import { partiesOf, resolveUnpaid, settleAttempt, type AttemptOutcome, type SettledAttempt } from './settle-attempt.ts';
import { PullRejection, type MerchantKey, type VaultGateway, type VaultTerms } from './vault-gateway.ts';
import { assertVaultMatchesPlan } from './vault-terms.ts';

export type TriggerPullResult = { kind: 'confirmed' | 'pending' | 'failed'; txHash: string };
/** merchant_secret is optional only for a caller with a key (see MISSING_SECRET). */
export type TriggerPullInput = {
  subscription_id: string;
  merchant_secret?: string;
  /** Internal: the collector's pulls are dunning tries (never set from HTTP). */
  origin?: PullOrigin;
};

/**
 * Without a key there is no stored key to fall back on, so a missing merchant_secret is the
 * spec's body error, with Zod's own reason as before keys existed.
 */
export const MISSING_SECRET = 'Invalid input on merchant_secret: Invalid input: expected string, received undefined';

export interface TriggerPullDeps {
  uow: UnitOfWork;
  pulls: PullsRepo;
  gateway: VaultGateway;
  clock: Clock;
  contractId: string | undefined;
  pollTimeoutMs: number;
  /** The merchant's stored signing key (signing-keys/open-signing-key.ts); 400 when it has none. */
  openSigningKey: (merchantId: string) => Promise<MerchantKey>;
  emit: EmitEvent;
  /** Client-side signing's prepared pulls: an open one blocks /trigger-pull (product.md's 409). */
  preparedPulls: Pick<PreparedPullsRepo, 'findOpen' | 'close'>;
}

export const pullPreparedError = () =>
  new BillingError('CONFLICT', "A prepared pull awaits the merchant's signature", { code: 'pull_prepared' });

/**
 * A refused envelope (stale sequence, a bid too low, a time bound too close) is worth a few fresh
 * builds, each recorded as its own attempt; then the pull is refused.
 */
const MAX_BUILDS = 4;

export function rejectionToError(err: PullRejection): BillingError {
  // The rejection rides along as the cause: the collector reads what the answer does not show.
  return new BillingError(
    err.code === 'chain_unavailable' ? 'CHAIN_UNAVAILABLE' : 'PULL_REJECTED',
    err.message,
    { code: err.code },
    { cause: err },
  );
}

export function makeTriggerPull(deps: TriggerPullDeps) {
  return makePullCore(deps).triggerPull;
}

/** The steps of a pull, shared by /trigger-pull and client-side signing (client-signing.ts). */
export function makePullCore(deps: TriggerPullDeps) {
  const { pulls, gateway, clock } = deps;

  async function waitAndSettle(ctx: PullContext, attempt: SettledAttempt, actor: Actor): Promise<AttemptOutcome> {
    let obs: Awaited<ReturnType<typeof gateway.waitForOutcome>>;
    try {
      obs = await gateway.waitForOutcome(attempt.tx_hash, Date.now() + deps.pollTimeoutMs, partiesOf(ctx));
    } catch (err) {
      // The RPC did not answer while we waited: the attempt stays pending (202) for the reconciler.
      if (err instanceof PullRejection && err.code === 'chain_unavailable')
        return { kind: 'pending', txHash: attempt.tx_hash };
      throw err;
    }
    return settleAttempt(deps, attempt, ctx, obs, actor);
  }

  /** Outcome of the attempt in flight, or undefined when there is none (or it just expired). */
  async function inFlight(ctx: PullContext, actor: Actor): Promise<TriggerPullResult | undefined> {
    const pending = await pulls.findPending(ctx.subscriptionId);
    if (!pending) return undefined;
    // Learn first whether it is already dead, so an expired attempt costs no poll timeout.
    const look = await gateway.observe(pending.tx_hash, partiesOf(ctx)).catch((err: unknown) => {
      throw err instanceof PullRejection ? rejectionToError(err) : err;
    });
    const first = await settleAttempt(deps, pending, ctx, look, actor);
    const outcome = first.kind === 'pending' ? await waitAndSettle(ctx, pending, actor) : first;
    return outcome.kind === 'expired' ? undefined : outcome;
  }

  async function attempt(
    ctx: PullContext,
    key: MerchantKey,
    contractId: string,
    actor: Actor,
    origin: PullOrigin,
    onRecorded?: (attemptId: string) => Promise<void>,
  ): Promise<TriggerPullResult> {
    // Every build's time bound goes past every recorded one, so no envelope repeats a hash.
    let laterThan = ctx.lastMaxTime ? Math.floor(ctx.lastMaxTime.getTime() / 1000) : undefined;
    for (let build = 1; ; build++) {
      const acceptVault = (vault: VaultTerms) => assertVaultMatchesPlan(ctx, vault);
      const signed = await gateway
        .preparePull({
          key,
          user: ctx.customerWallet,
          contractId,
          acceptVault,
          collectedBefore: ctx.collectedBefore,
          laterThan,
        })
        .catch((err: unknown) => {
          throw err instanceof PullRejection ? rejectionToError(err) : err;
        });
      laterThan = Math.max(laterThan ?? 0, signed.maxTime);
      const now = clock.now();
      // The attempt and its pull.pending event commit together, before anything is sent.
      const recorded = await deps.uow
        .run(async (tx) => {
          const row = await tx.pulls.insertPending({
            subscription_id: ctx.subscriptionId,
            merchant_id: ctx.merchantId,
            amount: ctx.tokenAmount,
            tx_hash: signed.hash,
            envelope_xdr: signed.envelopeXdr,
            source_account: signed.source,
            max_time: new Date(signed.maxTime * 1000),
            min_ledger: signed.minLedger,
            origin,
            now,
          });
          if (row) await deps.emit(tx, actor, { type: 'pull.pending', object: row });
          return row;
        })
        .catch(async (err: unknown) => {
          await gateway.abandon?.(signed);
          throw err;
        });
      if (!recorded) {
        // Never sent: its channel (if any) is free again at once.
        await gateway.abandon?.(signed);
        // Another process recorded an attempt between our check and our insert: ours is never
        // sent, and this request answers with that attempt's outcome instead.
        const other = await inFlight(ctx, actor);
        if (other) return other;
        if (build < MAX_BUILDS) continue;
        throw new BillingError('PULL_REJECTED', 'Another pull attempt for this subscription was in flight', {
          code: 'submission_failed',
        });
      }
      await onRecorded?.(recorded.id);
      try {
        await gateway.send(signed);
      } catch (err) {
        if (!(err instanceof PullRejection)) throw err;
        // The answer was lost: the network may hold the transaction. The outcome is unknown, so
        // the attempt stays pending for the reconciler and the merchant gets its hash (202).
        if (!err.definitelyNotSent) return { kind: 'pending', txHash: recorded.tx_hash };
        await deps.uow.run((tx) =>
          resolveUnpaid(deps, tx, actor, recorded.id, {
            status: 'rejected',
            error: err.message,
            code: err.code,
            at: clock.now(),
          }),
        );
        if (err.rebuild && build < MAX_BUILDS) continue;
        throw rejectionToError(err);
      }
      const outcome = await waitAndSettle(ctx, recorded, actor);
      return outcome.kind === 'expired' ? { kind: 'pending', txHash: outcome.txHash } : outcome;
    }
  }

  /**
   * product.md: after the secret checks, a canceled or paused subscription is a 409. A cancel at
   * period end whose instant has passed is applied here if the collector has not yet done it.
   */
  async function refuseUnlessLive(ctx: PullContext, actor: Actor): Promise<void> {
    const status = await applyDueCancel(
      deps,
      { id: ctx.subscriptionId, status: ctx.subscriptionStatus, cancelAt: ctx.cancelAt },
      clock.now(),
      actor,
    );
    if (status === 'canceled') throw canceledError();
    if (status === 'paused') throw pausedError();
  }

  /** The spec's secret checks: format (400), then the plan owner's wallet (401). */
  function keyFromSecret(secret: string, ctx: PullContext): MerchantKey {
    const key = gateway.parseSecret(secret);
    if (!key) throw new BillingError('INVALID_SECRET', 'Invalid merchant_secret: not a valid Stellar secret key');
    if (key.publicKey !== ctx.merchantWallet) {
      throw new BillingError('SECRET_MISMATCH', 'merchant_secret does not match the wallet of the plan owner', {
        code: 'secret_mismatch',
      });
    }
    return key;
  }

  /** An open prepared pull is the attempt in flight: 409 pull_prepared; one past its time is closed as expired. */
  async function refuseWhilePrepared(subscriptionId: string): Promise<void> {
    const open = await deps.preparedPulls.findOpen(subscriptionId);
    if (!open) return;
    if (open.expires_at.getTime() > clock.now().getTime()) throw pullPreparedError();
    await deps.preparedPulls.close(open.id, 'expired', clock.now());
  }

  /** Checks before anything is built: contract, amount, in-flight attempt, due date. */
  function assertPullable(ctx: PullContext): string {
    const contractId = deps.contractId;
    if (!contractId)
      throw new BillingError('CONTRACT_ID_MISSING', 'contract identifier not set in the environment file');
    if (rawUnits(ctx.tokenAmount) === undefined) {
      throw new BillingError(
        'PULL_REJECTED',
        `The plan's token_amount ${ctx.tokenAmount} is not a whole number of raw units within i128: it cannot be pulled`,
        { code: 'invalid_plan_amount' },
      );
    }
    return contractId;
  }

  function assertDue(ctx: PullContext): void {
    if (ctx.nextBillingDate.getTime() > clock.now().getTime()) {
      const due = ctx.nextBillingDate.toISOString();
      throw new BillingError('PULL_REJECTED', `Too early to pull funds: next billing date is ${due}`, {
        code: 'too_early',
        next_billing_date: due,
      });
    }
  }

  async function triggerPull({
    ctx: caller,
    input,
  }: {
    ctx: Ctx;
    input: TriggerPullInput;
  }): Promise<TriggerPullResult> {
    if (input.merchant_secret === undefined && caller.actor.kind === 'anonymous')
      throw new BillingError('VALIDATION', MISSING_SECRET);
    const ctx = await pulls.loadContext(input.subscription_id);
    if (!ctx || !sees(caller, ctx.merchantId)) throw new BillingError('NOT_FOUND', 'Subscription not found');
    if (ctx.merchantDeleted) throw new BillingError('NOT_FOUND', 'Merchant not found');
    const key =
      input.merchant_secret !== undefined
        ? keyFromSecret(input.merchant_secret, ctx)
        : await deps.openSigningKey(ctx.merchantId);
    await refuseUnlessLive(ctx, caller.actor);
    await refuseWhilePrepared(ctx.subscriptionId);
    const contractId = deps.contractId;
    if (!contractId)
      throw new BillingError('CONTRACT_ID_MISSING', 'contract identifier not set in the environment file');
    // A plan may be priced in fractions of a raw unit (the spec allows decimals), but the vault
    // and the token move whole raw units in i128 only: such a plan cannot be collected.
    if (rawUnits(ctx.tokenAmount) === undefined) {
      throw new BillingError(
        'PULL_REJECTED',
        `The plan's token_amount ${ctx.tokenAmount} is not a whole number of raw units within i128: it cannot be pulled`,
        {
          code: 'invalid_plan_amount',
        },
      );
    }

    const actor = caller.actor;
    const settled = await inFlight(ctx, actor);
    if (settled) return settled;
    // One merchant's pulls share its sequence number: queue them in this process.
    return gateway
      .serialize(ctx.merchantWallet, async () => {
        const fresh = (await pulls.loadContext(ctx.subscriptionId)) ?? ctx;
        const again = await inFlight(fresh, actor);
        if (again) return again;
        // next_billing_date is the earliest time the next pull is allowed; the contract's own
        // clock is only a backstop (create_vault again would reset it).
        if (fresh.nextBillingDate.getTime() > clock.now().getTime()) {
          const due = fresh.nextBillingDate.toISOString();
          throw new BillingError('PULL_REJECTED', `Too early to pull funds: next billing date is ${due}`, {
            code: 'too_early',
            next_billing_date: due,
          });
        }
        return attempt(fresh, key, contractId, actor, input.origin ?? 'manual');
      })
      .catch((err: unknown) => {
        // A full or slow merchant queue refuses before anything is built.
        throw err instanceof PullRejection ? rejectionToError(err) : err;
      });
  }

  return { triggerPull, inFlight, attempt, refuseUnlessLive, assertPullable, assertDue };
}
