// What an observation of the network means for an attempt, applied exactly once. Shared by
// /trigger-pull (its own attempt, or one it found in flight) and the reconciler.
import type { Clock, UnitOfWork } from '../ports.ts';
import type { AttemptResolution, PullAttempt, PullContext } from './pulls-port.ts';
import { nextBillingDate } from '../schedule.ts';
import type { ForgottenOutcome, TxObservation, VaultGateway } from './vault-gateway.ts';
import { transferDiscrepancy } from './vault-terms.ts';
import { dunningStep } from '../collection/dunning.ts';

export const dunningPlanOf = (ctx: PullContext) => ({ retryScheduleSeconds: ctx.retryScheduleSeconds, finalStatus: ctx.finalStatus });

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
}

export type SettledAttempt = Pick<PullAttempt, 'id' | 'subscription_id' | 'tx_hash' | 'max_time' | 'min_ledger' | 'envelope_xdr' | 'origin'>;

export const partiesOf = (ctx: PullContext) => ({ user: ctx.customerWallet, merchant: ctx.merchantWallet });

const planTermsOf = (ctx: PullContext) => ({
  tokenAmount: ctx.tokenAmount,
  intervalSeconds: ctx.intervalSeconds,
  tokenContractId: ctx.tokenContractId,
});

/** NOT_FOUND past the time bound: the transaction can no longer be included. */
export function isPastTimeBound(attempt: Pick<PullAttempt, 'max_time'>, obs: TxObservation): boolean {
  return obs.status === 'NOT_FOUND' && obs.latestLedgerCloseTime > attempt.max_time.getTime() / 1000 + EXPIRY_MARGIN_SECONDS;
}

/**
 * The RPC still holds every ledger that could have included the attempt, so its NOT_FOUND is
 * proof. NOT_FOUND also means "older than my retention window" (7 days by default, often less at
 * providers): an attempt whose ledgers were forgotten is never declared expired on that word.
 */
export function isWithinRetention(attempt: Pick<PullAttempt, 'min_ledger'>, obs: TxObservation): boolean {
  return attempt.min_ledger !== null && obs.oldestLedger <= attempt.min_ledger + 1;
}

export async function settleAttempt(deps: SettleDeps, attempt: SettledAttempt, ctx: PullContext, obs: TxObservation): Promise<AttemptOutcome> {
  const txHash = attempt.tx_hash;
  const at = deps.clock.now();
  if (obs.status === 'SUCCESS') {
    await confirm(deps, attempt, ctx, {
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
    await deps.uow.run(async ({ pulls }) => {
      const error = 'Transaction failed on-chain';
      if (await pulls.resolve(attempt.id, { status: 'failed', ledger: obs.ledger, error, code: 'failed_on_chain', fee_charged: obs.feeCharged, at })) {
        // The spec's 502 makes a manual pull's subscription past_due; a collector's failure is a
        // dunning try and follows the plan's schedule.
        if (attempt.origin === 'collector') {
          await pulls.applyDunning(attempt.subscription_id, dunningStep(dunningPlanOf(ctx), ctx.dunningTries, 'try', at), at);
        } else {
          await pulls.markPastDue(attempt.subscription_id, at);
        }
      }
    });
    return { kind: 'failed', txHash };
  }
  if (!isPastTimeBound(attempt, obs)) return { kind: 'pending', txHash };
  const forgotten: ForgottenOutcome = isWithinRetention(attempt, obs) ? 'not_landed' : await establishForgotten(deps, attempt, ctx);
  if (forgotten === 'landed') {
    await confirm(deps, attempt, ctx, {
      discrepancy: "confirmed from the vault's last pull time: the transaction is older than the RPC's history, so what moved is unknown",
      at,
    });
    return { kind: 'confirmed', txHash };
  }
  if (forgotten === 'unknown') return { kind: 'pending', txHash }; // never charge again while unsure
  const error = isWithinRetention(attempt, obs)
    ? 'not included before its time bound'
    : "not included before its time bound (established from the account's sequence and the vault: the RPC no longer holds those ledgers)";
  await deps.uow.run(({ pulls }) => pulls.resolve(attempt.id, { status: 'expired', error, at }));
  return { kind: 'expired', txHash };
}

async function confirm(deps: SettleDeps, attempt: SettledAttempt, ctx: PullContext, fields: Omit<AttemptResolution, 'status'>) {
  await deps.uow.run(async ({ pulls }) => {
    // Pull time is our clock when we see the confirmation (spec, next-billing-date rule 1).
    if (await pulls.resolve(attempt.id, { status: 'confirmed', ...fields })) {
      await pulls.scheduleNext(attempt.subscription_id, nextBillingDate(fields.at, ctx.intervalSeconds), fields.at);
    }
  });
}

async function establishForgotten(deps: SettleDeps, attempt: SettledAttempt, ctx: PullContext): Promise<ForgottenOutcome> {
  if (!deps.contractId) return 'unknown';
  try {
    return await deps.gateway.establishForgotten({ envelopeXdr: attempt.envelope_xdr, ...partiesOf(ctx), contractId: deps.contractId });
  } catch {
    return 'unknown'; // the network could not be read: try again later
  }
}
