// /checkout/{plan_id}: the subscriber reads the plan, connects a wallet, signs the token's approve
// (an allowance for a stated number of cycles, within the network's maximum entry lifetime) and
// the vault's create_vault with exactly the plan's terms, and the service records the
// subscription once it has read both on chain (POST /checkout/{plan_id}/subscriptions).
import { useEffect, useState } from 'preact/hooks';
import { api, errorText } from '../api/client.ts';
import type { paths } from '../api/schema';
import {
  ALLOWANCE_MARGIN_LEDGERS,
  args,
  ChainStepError,
  invoke,
  LEDGER_SECONDS,
  latestLedger,
  MAX_ENTRY_TTL,
  readAllowance,
  tokenInfo,
} from '../chain/soroban.ts';
import { pageConfig } from '../config.ts';
import { formatUnits, intervalWords, shortAddress } from '../format.ts';
import { connectFreighter } from '../wallet/freighter.ts';
import { connectLocal } from '../wallet/local.ts';
import type { ConnectedWallet } from '../wallet/wallet.ts';

type Plan = paths['/plans/{id}']['get']['responses'][200]['content']['application/json']['plan'];

type Step =
  | { kind: 'ready' }
  | { kind: 'connecting' }
  | { kind: 'signing'; what: string }
  | { kind: 'submitting'; what: string }
  | { kind: 'recording' }
  | { kind: 'confirmed'; subscriptionId: string; hashes: string[] }
  | { kind: 'failed'; cause: string };

/** Why a plan cannot be checked out here, or undefined. */
function unavailable(plan: Plan, vault: string | null): string | undefined {
  if (plan.archived_at) return 'This plan is archived: it takes no new subscribers.';
  if (!plan.token_contract_id)
    return 'This plan names no token, so there is nothing to approve: ask the merchant for another plan.';
  if (!Number.isInteger(plan.token_amount) || plan.token_amount <= 0)
    return `This plan's price (${plan.token_amount}) is not a whole number of the token's raw units, so no vault can hold it.`;
  if (!vault) return 'This service has no vault contract configured (CONTRACT_ID), so it cannot take subscribers.';
  return undefined;
}

/** How many cycles an allowance can cover within the maximum entry lifetime (at least one). */
export function maxCycles(intervalSeconds: number): number {
  const ledgers = MAX_ENTRY_TTL - 1 - ALLOWANCE_MARGIN_LEDGERS;
  return Math.max(1, Math.floor((ledgers * LEDGER_SECONDS) / intervalSeconds) + 1);
}

/** Ledgers the allowance must live for `cycles` pulls, the first now, capped at the maximum lifetime. */
export function allowanceLedgers(cycles: number, intervalSeconds: number): number {
  const needed = Math.ceil(((cycles - 1) * intervalSeconds) / LEDGER_SECONDS) + ALLOWANCE_MARGIN_LEDGERS;
  return Math.min(needed, MAX_ENTRY_TTL - 1);
}

export function CheckoutPage({ planId }: { planId: string }) {
  const cfg = pageConfig();
  const [plan, setPlan] = useState<Plan | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [token, setToken] = useState<{ decimals: number; symbol: string } | null>(null);
  const [cycles, setCycles] = useState(12);
  const [step, setStep] = useState<Step>({ kind: 'ready' });
  const [wallet, setWallet] = useState<ConnectedWallet | null>(null);

  useEffect(() => {
    (async () => {
      const { data, error, response } = await api.GET('/plans/{id}', { params: { path: { id: planId } } });
      if (!data) return setLoadError(errorText(error, response));
      setPlan(data.plan);
      setCycles((c) => Math.min(c, maxCycles(data.plan.interval_seconds)));
      if (data.plan.token_contract_id) {
        try {
          setToken(await tokenInfo(cfg, data.plan.token_contract_id, data.plan.merchant.wallet_address));
        } catch (err) {
          setLoadError(`The plan's token could not be read on the network: ${(err as Error).message}`);
        }
      }
    })();
  }, [planId]);

  useEffect(() => {
    const el = document.getElementById('status');
    if (step.kind === 'failed' || step.kind === 'confirmed') el?.focus();
  }, [step.kind]);

  if (loadError)
    return (
      <Shell>
        <div role="alert" class="notice error">
          {loadError}
        </div>
      </Shell>
    );
  if (!plan)
    return (
      <Shell>
        <p aria-live="polite">Loading the plan…</p>
      </Shell>
    );

  const why = unavailable(plan, cfg.vault_contract_id);
  const amount = Number.isInteger(plan.token_amount) ? BigInt(plan.token_amount) : 0n;
  const price = token ? `${formatUnits(amount, token.decimals)} ${token.symbol}` : `${plan.token_amount} raw units`;
  const limit = maxCycles(plan.interval_seconds);
  const ledgers = allowanceLedgers(cycles, plan.interval_seconds);
  const expires = new Date(Date.now() + ledgers * LEDGER_SECONDS * 1000);
  const busy = !['ready', 'failed', 'confirmed'].includes(step.kind);

  async function subscribe(kind: 'freighter' | 'local') {
    if (!plan?.token_contract_id || !cfg.vault_contract_id) return;
    const vault = cfg.vault_contract_id;
    const tokenId = plan.token_contract_id;
    const allowance = amount * BigInt(cycles);
    try {
      setStep({ kind: 'connecting' });
      const w =
        kind === 'freighter' ? await connectFreighter(cfg.network_passphrase) : await connectLocal(cfg, amount * 10n);
      setWallet(w);
      // approve sets the allowance rather than adding to it, and one allowance to the vault contract
      // serves every vault of this wallet in this token: what other subscriptions still have is kept.
      const latest = await latestLedger(cfg);
      const existing = await readAllowance(cfg, tokenId, w.address, vault);
      const kept = existing.amount;
      const total = kept + allowance;
      const live = Math.max(latest + ledgers, kept > 0n ? (existing.liveUntilLedger ?? 0) : 0);
      const hashes: string[] = [];
      const fmt = (v: bigint) => `${formatUnits(v, token?.decimals ?? 0)} ${token?.symbol ?? ''}`.trim();
      const approveWhat = `approve: allow the vault contract to take up to ${fmt(total)}${kept > 0n ? `, of which ${fmt(kept)} your other subscriptions already had` : ''}`;
      hashes.push(
        await invoke(cfg, w.address, tokenId, 'approve', args.approve(w.address, vault, total, live), w.sign, (s) =>
          setStep({ kind: s, what: `1 of 2, ${approveWhat}` }),
        ),
      );
      hashes.push(
        await invoke(
          cfg,
          w.address,
          vault,
          'create_vault',
          args.createVault(w.address, plan.merchant.wallet_address, tokenId, amount, plan.interval_seconds),
          w.sign,
          (s) =>
            setStep({
              kind: s,
              what: `2 of 2, create_vault: ${price} ${intervalWords(plan.interval_seconds)} to ${plan.merchant.name}`,
            }),
        ),
      );
      setStep({ kind: 'recording' });
      const { data, error, response } = await api.POST('/checkout/{plan_id}/subscriptions', {
        params: { path: { plan_id: plan.id } },
        body: { customer_wallet_address: w.address },
      });
      if (!data) throw new ChainStepError(`the service did not record the subscription: ${errorText(error, response)}`);
      setStep({ kind: 'confirmed', subscriptionId: data.subscription.id, hashes });
    } catch (err) {
      setStep({ kind: 'failed', cause: (err instanceof Error ? err.message : String(err)).replace(/\.$/, '') });
    }
  }

  return (
    <Shell>
      <section aria-labelledby="plan-name" class="card">
        <p class="merchant">{plan.merchant.name}</p>
        <h1 id="plan-name">{plan.name}</h1>
        <p class="price">
          <strong data-testid="price">{price}</strong> {intervalWords(plan.interval_seconds)}
        </p>
        <dl class="facts">
          <dt>Paid to</dt>
          <dd title={plan.merchant.wallet_address}>{shortAddress(plan.merchant.wallet_address)}</dd>
          {plan.token_contract_id && (
            <>
              <dt>Token</dt>
              <dd title={plan.token_contract_id}>{shortAddress(plan.token_contract_id)}</dd>
            </>
          )}
        </dl>
      </section>

      {why ? (
        <div role="alert" class="notice error" data-testid="unavailable">
          {why}
        </div>
      ) : (
        <section class="card" aria-labelledby="authorize">
          <h2 id="authorize">Authorize payments</h2>
          <label for="cycles">Number of payments the allowance covers (at most {limit}, about 180 days)</label>
          <input
            id="cycles"
            type="number"
            min={1}
            max={limit}
            value={cycles}
            disabled={busy}
            onInput={(e) => {
              const n = Number((e.target as HTMLInputElement).value);
              if (Number.isInteger(n)) setCycles(Math.min(Math.max(1, n), limit));
            }}
          />
          <p data-testid="allowance">
            Your wallet will allow the vault contract to take up to{' '}
            <strong>
              {token ? formatUnits(amount * BigInt(cycles), token.decimals) : (amount * BigInt(cycles)).toString()}{' '}
              {token?.symbol}
            </strong>{' '}
            ({cycles} × {price}), until about <strong>{expires.toUTCString()}</strong>. The merchant can take at most
            one payment {intervalWords(plan.interval_seconds)}. You can renew or stop this at any time at{' '}
            <a href="/manage">/manage</a>.
          </p>
          <div class="actions">
            <button type="button" disabled={busy} onClick={() => subscribe('freighter')}>
              Subscribe with Freighter
            </button>
            {cfg.local_wallet && (
              <button type="button" class="secondary" disabled={busy} onClick={() => subscribe('local')}>
                Subscribe with the local test wallet
              </button>
            )}
          </div>
          {cfg.local_wallet && (
            <p class="hint">
              The local test wallet is a throwaway account of the local network, funded with test tokens; it is only
              offered outside production.
            </p>
          )}
        </section>
      )}

      <Status step={step} wallet={wallet} />
    </Shell>
  );
}

function Status({ step, wallet }: { step: Step; wallet: ConnectedWallet | null }) {
  const text = (() => {
    switch (step.kind) {
      case 'ready':
        return '';
      case 'connecting':
        return 'Connecting to your wallet…';
      case 'signing':
        return `Waiting for your signature (${step.what})…`;
      case 'submitting':
        return `Submitting to the network and waiting for the ledger (${step.what})…`;
      case 'recording':
        return 'Both transactions are on chain. The service is checking them and recording your subscription…';
      case 'confirmed':
        return 'Subscribed. Your first payment will be collected shortly.';
      case 'failed':
        return `Failed: ${step.cause}. Nothing was recorded.`;
    }
  })();
  return (
    <section
      id="status"
      tabIndex={-1}
      class={`notice ${step.kind === 'failed' ? 'error' : step.kind === 'confirmed' ? 'ok' : ''}`}
      role={step.kind === 'failed' ? 'alert' : 'status'}
      aria-live="polite"
      data-testid="status"
      data-step={step.kind}
      hidden={step.kind === 'ready'}
    >
      <p>{text}</p>
      {wallet && step.kind !== 'ready' && <p class="hint">Wallet: {wallet.address}</p>}
      {step.kind === 'confirmed' && (
        <p class="hint">
          Subscription <code>{step.subscriptionId}</code>; transactions{' '}
          {step.hashes.map((h) => (
            <code key={h}>{shortAddress(h)} </code>
          ))}
        </p>
      )}
    </section>
  );
}

function Shell({ children }: { children: preact.ComponentChildren }) {
  return (
    <main class="narrow">
      <p class="brand">Checkout</p>
      {children}
    </main>
  );
}
