// What an observation of the network means for an attempt, applied exactly once. Shared by
// /trigger-pull (its own attempt, or one it found in flight) and the reconciler. Each outcome's
// events (pull.*, and the subscription's change of status) commit with the outcome itself, and only
// the one observer whose conditional update flipped the attempt writes them.
import type { Actor } from '../context.ts';
import type { EmitEvent } from '../events/emit-event.ts';
import type { Clock } from '../clock.ts';
import type { Repos, UnitOfWork } from '../unit-of-work.ts';
import type { AttemptResolution, PullAttempt, PullContext, SubscriptionChange } from './pulls-port.ts';
import { nextBillingDate } from '../schedule.ts';
import type { ForgottenOutcome, TxObservation, VaultGateway } from './vault-gateway.ts';
import { transferDiscrepancy } from './vault-terms.ts';
import { dunningStep } from '../collection/dunning.ts';

/**
 * A transaction still NOT_FOUND once the ledger's close time is this far past its time bound
 * will never be included: core drops a transaction at the first ledger after its maxTime. Two
 * ledgers of 5 s are the margin for an RPC that is a ledger or two behind the network.
 */
export const EXPIRY_MARGIN_SECONDS = 10;

export type AttemptOutcome =
  | { kind: 'confirmed'; txHash: string }
  | { kind: 'failed'; txHash: string }
  | { kind: 'pending'; txHash: string }
  | { kind: 'expired'; txHash: string };

export interface SettleDeps {
  uow: UnitOfWork;
  clock: Clock;
  gateway: Pick<VaultGateway, 'establishForgotten'>;
  contractId: string | undefined;
  emit: EmitEvent;
}

export type SettledAttempt = Pick<
  PullAttempt,
  'id' | 'subscription_id' | 'tx_hash' | 'max_time' | 'min_ledger' | 'envelope_xdr' | 'origin'
>;

export const dunningPlanOf = (ctx: PullContext) => ({
  retryScheduleSeconds: ctx.retryScheduleSeconds,
  finalStatus: ctx.finalStatus,
});

export const partiesOf = (ctx: PullContext) => ({ user: ctx.customerWallet, merchant: ctx.merchantWallet });

const planTermsOf = (ctx: PullContext) => ({
  tokenAmount: ctx.tokenAmount,
  intervalSeconds: ctx.intervalSeconds,
  tokenContractId: ctx.tokenContractId,
});

/** NOT_FOUND past the time bound: the transaction can no longer be included. */
export function isPastTimeBound(attempt: Pick<PullAttempt, 'max_time'>, obs: TxObservation): boolean {
  return (
    obs.status === 'NOT_FOUND' && obs.latestLedgerCloseTime > attempt.max_time.getTime() / 1000 + EXPIRY_MARGIN_SECONDS
  );
}

/**
 * The RPC still holds every ledger that could have included the attempt, so its NOT_FOUND is
 * proof. NOT_FOUND also means "older than my retention window" (7 days by default, often less at
 * providers): an attempt whose ledgers were forgotten is never declared expired on that word.
 */
export function isWithinRetention(attempt: Pick<PullAttempt, 'min_ledger'>, obs: TxObservation): boolean {
  return attempt.min_ledger !== null && obs.oldestLedger <= attempt.min_ledger + 1;
}

const STATUS_EVENTS = {
  past_due: 'subscription.past_due',
  active: 'subscription.reactivated',
  unpaid: 'subscription.unpaid',
  canceled: 'subscription.canceled',
} as const;

/** The subscription.* event of a status a pull or a dunning step moved it to; nothing otherwise. */
export async function statusEvent(
  deps: Pick<SettleDeps, 'emit'>,
  tx: Repos,
  actor: Actor,
  change: SubscriptionChange | undefined,
): Promise<void> {
  if (!change || change.subscription.status === change.previousStatus) return;
  const type = STATUS_EVENTS[change.subscription.status as keyof typeof STATUS_EVENTS];
  if (type) await deps.emit(tx, actor, { type, object: change.subscription });
}

/** pull.failed for an attempt that ended without collecting (failed, rejected, expired). */
export async function resolveUnpaid(
  deps: Pick<SettleDeps, 'emit'>,
  tx: Repos,
  actor: Actor,
  id: string,
  outcome: AttemptResolution,
): Promise<PullAttempt | undefined> {
  const resolved = await tx.pulls.resolve(id, outcome);
  if (resolved) await deps.emit(tx, actor, { type: 'pull.failed', object: resolved });
  return resolved;
}

/** `actor` is who observed the outcome: the request's caller, or the reconciler (system). */
export async function settleAttempt(
  deps: SettleDeps,
  attempt: SettledAttempt,
  ctx: PullContext,
  obs: TxObservation,
  actor: Actor,
): Promise<AttemptOutcome> {
  const txHash = attempt.tx_hash;
  const at = deps.clock.now();
  if (obs.status === 'SUCCESS') {
    await confirm(deps, attempt, ctx, actor, 'in_ledger', {
      ledger: obs.ledger,
      transferred_amount: obs.transfer?.amount,
      token_contract_id: obs.transfer?.token,
      fee_charged: obs.feeCharged,
      inner_tx_hash: obs.innerTxHash,
      discrepancy: transferDiscrepancy(planTermsOf(ctx), obs.transfer),
      at,
    });
    return { kind: 'confirmed', txHash };
  }
  if (obs.status === 'FAILED') {
    await deps.uow.run(async (tx) => {
      const error = 'Transaction failed on-chain';
      if (
        await resolveUnpaid(deps, tx, actor, attempt.id, {
          status: 'failed',
          ledger: obs.ledger,
          error,
          code: 'failed_on_chain',
          fee_charged: obs.feeCharged,
          at,
        })
      ) {
        // The spec's 502 makes a manual pull's subscription past_due; a collector's failure is a
        // dunning try and follows the plan's schedule.
        const change =
          attempt.origin === 'collector'
            ? await tx.pulls.applyDunning(
                attempt.subscription_id,
                dunningStep(dunningPlanOf(ctx), ctx.dunningTries, 'try', at),
                at,
              )
            : await tx.pulls.markPastDue(attempt.subscription_id, at);
        await statusEvent(deps, tx, actor, change);
      }
    });
    return { kind: 'failed', txHash };
  }
  if (!isPastTimeBound(attempt, obs)) return { kind: 'pending', txHash };
  const forgotten: ForgottenOutcome = isWithinRetention(attempt, obs)
    ? 'not_landed'
    : await establishForgotten(deps, attempt, ctx);
  if (forgotten === 'landed') {
    await confirm(deps, attempt, ctx, actor, 'inferred', {
      discrepancy:
        "confirmed from the vault's last pull time: the transaction is older than the RPC's history, so what moved is unknown",
      at,
    });
    return { kind: 'confirmed', txHash };
  }
  if (forgotten === 'unknown') return { kind: 'pending', txHash }; // never charge again while unsure
  const error = isWithinRetention(attempt, obs)
    ? 'not included before its time bound'
    : "not included before its time bound (established from the account's sequence and the vault: the RPC no longer holds those ledgers)";
  await deps.uow.run((tx) => resolveUnpaid(deps, tx, actor, attempt.id, { status: 'expired', error, at }));
  return { kind: 'expired', txHash };
}

/** Statuses inferred without seeing the transaction in a ledger: a later SUCCESS overrides them. */
const CORRECTABLE = ['expired', 'rejected'] as const;

const corrected = (discrepancy: string | undefined) =>
  ['seen successful on-chain after it had been recorded as not landed', discrepancy].filter(Boolean).join('; ');

async function confirm(
  deps: SettleDeps,
  attempt: SettledAttempt,
  ctx: PullContext,
  actor: Actor,
  /** Seen SUCCESS in a ledger, or inferred from the vault (the RPC forgot the transaction). */
  evidence: 'in_ledger' | 'inferred',
  fields: Omit<AttemptResolution, 'status'>,
) {
  await deps.uow.run(async (tx) => {
    // Pull time is our clock when we see the confirmation (spec, next-billing-date rule 1).
    let confirmed = await tx.pulls.resolve(attempt.id, { status: 'confirmed', ...fields });
    // Another observer resolved it first. If it recorded an inference (expired, rejected) that a
    // ledger now contradicts, the chain wins: the money moved, so the record says so and the
    // schedule moves. Otherwise that observer confirmed it and wrote the effects.
    if (!confirmed && evidence === 'in_ledger')
      confirmed = await tx.pulls.resolve(
        attempt.id,
        { status: 'confirmed', ...fields, discrepancy: corrected(fields.discrepancy) },
        CORRECTABLE,
      );
    if (!confirmed) return;
    await deps.emit(tx, actor, { type: 'pull.succeeded', object: confirmed });
    await statusEvent(
      deps,
      tx,
      actor,
      await tx.pulls.scheduleNext(attempt.subscription_id, nextBillingDate(fields.at, ctx.intervalSeconds), fields.at),
    );
  });
}

async function establishForgotten(
  deps: SettleDeps,
  attempt: SettledAttempt,
  ctx: PullContext,
): Promise<ForgottenOutcome> {
  if (!deps.contractId) return 'unknown';
  try {
    return await deps.gateway.establishForgotten({
      envelopeXdr: attempt.envelope_xdr,
      ...partiesOf(ctx),
      contractId: deps.contractId,
    });
  } catch {
    return 'unknown'; // the network could not be read: try again later
  }
}
