// POST /checkout/{plan_id}/subscriptions (product.md, "checkout"): the hosted checkout records its
// subscriber without a key, so the row is created only once the ledger shows what the subscriber
// signed: a vault for this merchant with exactly the plan's token, amount and interval, and a live
// allowance to the vault contract covering at least one cycle. The subscriber's balance is not
// checked: a wallet may be topped up before the first pull, and that is what health reports.
// The checks are the collector's pre-flight rules (collection/preflight.ts), so a checkout the
// service accepts is one its first pull would not refuse for vault or allowance reasons.
import type { Ctx } from '../context.ts';
import { BillingError, notFound } from '../errors.ts';
import type { Subscription } from '../model.ts';
import type { PlansRepo } from '../plans/plans-port.ts';
import { preflightProblem } from '../collection/preflight.ts';
import { PullRejection, type VaultGateway } from '../pulls/vault-gateway.ts';
import { sees } from '../access/scope.ts';
import type { CreateSubscriptionInput } from '../subscriptions/create-subscription.ts';

export interface CheckoutDeps {
  plans: Pick<PlansRepo, 'findOffered'>;
  gateway: Pick<VaultGateway, 'inspect'>;
  contractId: string | undefined;
  createSubscription: (args: { ctx: Ctx; input: CreateSubscriptionInput }) => Promise<Subscription>;
}

/** Codes of a checkout the ledger does not back (400 `code`). */
export type CheckoutProblemCode =
  | 'vault_missing'
  | 'vault_terms_mismatch'
  | 'insufficient_allowance'
  | 'allowance_expired'
  | 'allowance_revoked';

export function makeCheckoutSubscription(deps: CheckoutDeps) {
  return async function checkoutSubscription({
    ctx,
    input,
  }: {
    ctx: Ctx;
    input: CreateSubscriptionInput;
  }): Promise<Subscription> {
    const plan = await deps.plans.findOffered(input.plan_id);
    if (!plan || !sees(ctx, plan.merchant_id)) throw notFound('Plan');
    const contractId = deps.contractId;
    if (!contractId) throw new BillingError('CONTRACT_ID_MISSING', 'CONTRACT_ID is not configured');
    const ins = await deps.gateway
      .inspect({ user: input.customer_wallet_address, merchant: plan.merchant.wallet_address, contractId })
      .catch((err: unknown) => {
        if (err instanceof PullRejection)
          throw new BillingError('CHAIN_UNAVAILABLE', err.message, { code: 'chain_unavailable' });
        throw err;
      });
    const terms = {
      tokenAmount: plan.token_amount,
      intervalSeconds: plan.interval_seconds,
      tokenContractId: plan.token_contract_id,
    };
    const problem = preflightProblem(terms, ins, false);
    // The balance is the one pre-flight cause a checkout accepts (see above).
    if (problem && problem.code !== 'insufficient_balance') {
      throw new BillingError(
        'VALIDATION',
        `Checkout not confirmed on chain: ${problem.message.replace(' (pre-flight)', '')}`,
        {
          code: problem.code,
        },
      );
    }
    // The archived-plan and duplicate-wallet answers are the spec route's own.
    return deps.createSubscription({ ctx, input });
  };
}
