// Client-side signing (issue 14, product.md): the merchant never hands over a secret.
//   POST /subscriptions/{id}/pulls/prepare → the merchant's unsigned authorisation of pull_funds
//   (the HashIdPreimage and its SHA-256); POST /pulls/{id}/submit with an ed25519 signature of that
//   hash → checked against the merchant's wallet, built and sent through a channel account, and
//   answered as /trigger-pull answers. Same exactly-once rules: an open prepared pull is the
//   subscription's attempt in flight (a second prepare or a /trigger-pull answer 409 pull_prepared)
//   until it is submitted or expires; its submission becomes an ordinary pull attempt.
import { sees } from '../access/scope.ts';
import type { Ctx } from '../context.ts';
import { BillingError } from '../errors.ts';
import type { Clock } from '../clock.ts';
import type { UnitOfWork } from '../unit-of-work.ts';
import type { PreparedPull, PreparedPullsRepo } from './prepared-pulls-port.ts';
import type { PullsRepo } from './pulls-port.ts';
import {
  makePullCore,
  pullPreparedError,
  rejectionToError,
  type TriggerPullDeps,
  type TriggerPullResult,
} from './trigger-pull.ts';
import { PullRejection, type VaultGateway, type VaultTerms } from './vault-gateway.ts';
import { assertVaultMatchesPlan } from './vault-terms.ts';

export interface ClientSigningDeps extends TriggerPullDeps {
  uow: UnitOfWork;
  pulls: PullsRepo;
  preparedPulls: PreparedPullsRepo;
  gateway: VaultGateway;
  clock: Clock;
  /** How long a prepared pull waits for its signature (PREPARED_PULL_TTL_SECONDS, default 300). */
  preparedTtlSeconds: number;
}

export interface PreparedAnswer {
  pull: { id: string; status: 'prepared'; expires_at: Date };
  preimage_xdr: string;
  hash: string;
  signature_expiration_ledger: number;
}

const chainError = (err: unknown) => (err instanceof PullRejection ? rejectionToError(err) : err);

export function makeClientSigning(deps: ClientSigningDeps) {
  const core = makePullCore(deps);
  const { pulls, gateway, clock } = deps;

  async function loadVisible(caller: Ctx, subscriptionId: string) {
    const ctx = await pulls.loadContext(subscriptionId);
    if (!ctx || !sees(caller, ctx.merchantId)) throw new BillingError('NOT_FOUND', 'Subscription not found');
    if (ctx.merchantDeleted) throw new BillingError('NOT_FOUND', 'Merchant not found');
    return ctx;
  }

  async function prepare({ ctx: caller, input }: { ctx: Ctx; input: { id: string } }): Promise<PreparedAnswer> {
    const ctx = await loadVisible(caller, input.id);
    await core.refuseUnlessLive(ctx, caller.actor);
    const open = await deps.preparedPulls.findOpen(ctx.subscriptionId);
    if (open) {
      if (open.expires_at.getTime() > clock.now().getTime()) throw pullPreparedError();
      await deps.preparedPulls.close(open.id, 'expired', clock.now());
    }
    const contractId = core.assertPullable(ctx);
    // A transaction in flight is resolved first; one still unresolved is the attempt in flight.
    const settled = await core.inFlight(ctx, caller.actor);
    if (settled?.kind === 'pending')
      throw new BillingError('CONFLICT', 'A pull of this subscription is in flight', {
        code: 'pull_pending',
        txHash: settled.txHash,
      });
    const fresh = (await pulls.loadContext(ctx.subscriptionId)) ?? ctx;
    core.assertDue(fresh);
    if (!gateway.prepareAuthorization)
      throw new BillingError('PULL_REJECTED', 'Client-side signing is not available', { code: 'submission_failed' });
    const request = await gateway
      .prepareAuthorization({
        merchant: fresh.merchantWallet,
        user: fresh.customerWallet,
        contractId,
        collectedBefore: fresh.collectedBefore,
        acceptVault: (vault: VaultTerms) => assertVaultMatchesPlan(fresh, vault),
        validForSeconds: deps.preparedTtlSeconds,
      })
      .catch((err: unknown) => {
        throw chainError(err);
      });
    const now = clock.now();
    const row = await deps.preparedPulls.insert({
      subscription_id: fresh.subscriptionId,
      merchant_id: fresh.merchantId,
      auth_entry_xdr: request.entryXdr,
      preimage_xdr: request.preimageXdr,
      hash: request.hash,
      signature_expiration_ledger: request.signatureExpirationLedger,
      expires_at: new Date(now.getTime() + deps.preparedTtlSeconds * 1000),
      now,
    });
    // Another prepare won the race: it is the attempt in flight.
    if (!row) throw pullPreparedError();
    return {
      pull: { id: row.id, status: 'prepared', expires_at: row.expires_at },
      preimage_xdr: row.preimage_xdr,
      hash: row.hash,
      signature_expiration_ledger: row.signature_expiration_ledger,
    };
  }

  async function submit({
    ctx: caller,
    input,
  }: {
    ctx: Ctx;
    input: { id: string; signature: string };
  }): Promise<TriggerPullResult> {
    const prepared: PreparedPull | undefined = await deps.preparedPulls.find(input.id);
    if (!prepared || !sees(caller, prepared.merchant_id)) throw new BillingError('NOT_FOUND', 'Pull not found');
    if (prepared.status === 'submitted')
      throw new BillingError('CONFLICT', 'This prepared pull was already submitted', { code: 'pull_submitted' });
    if (prepared.status === 'expired' || prepared.expires_at.getTime() <= clock.now().getTime()) {
      await deps.preparedPulls.close(prepared.id, 'expired', clock.now());
      throw new BillingError('CONFLICT', 'The prepared pull expired before it was signed: prepare it again', {
        code: 'pull_expired',
      });
    }
    const ctx = await loadVisible(caller, prepared.subscription_id);
    const signature = Buffer.from(input.signature, 'base64');
    if (signature.length !== 64 || !gateway.verifySignature?.(ctx.merchantWallet, prepared.hash, signature)) {
      throw new BillingError(
        'VALIDATION',
        "Invalid input on signature: not an ed25519 signature of the prepared hash by the merchant's wallet",
        { code: 'signature_invalid' },
      );
    }
    await core.refuseUnlessLive(ctx, caller.actor);
    const contractId = core.assertPullable(ctx);
    // Submitted from here on: the slot of the attempt in flight passes to the pull attempt.
    if (!(await deps.preparedPulls.close(prepared.id, 'submitted', clock.now())))
      throw new BillingError('CONFLICT', 'This prepared pull was already submitted', { code: 'pull_submitted' });
    const key = {
      publicKey: ctx.merchantWallet,
      entryXdr: prepared.auth_entry_xdr,
      signatureExpirationLedger: prepared.signature_expiration_ledger,
      signature: new Uint8Array(signature),
    };
    const settled = await core.inFlight(ctx, caller.actor);
    if (settled) return settled;
    const fresh = (await pulls.loadContext(ctx.subscriptionId)) ?? ctx;
    core.assertDue(fresh);
    return core
      .attempt(fresh, key, contractId, caller.actor, 'manual', (attemptId) =>
        deps.preparedPulls.linkPull(prepared.id, attemptId),
      )
      .catch((err: unknown) => {
        throw chainError(err);
      });
  }

  return { prepare, submit };
}
