// /manage: a subscriber, with no account, proves its wallet by signing a short message and sees its
// subscriptions with this service's merchants (POST /subscriber/subscriptions), the allowance left
// to the vault contract and when it expires (read on chain), and can renew it (a new approve) or
// stop paying (approve 0, which the service treats as cancellation at the next billing attempt).
// One allowance per token covers every vault of the wallet in that token, so they are grouped so.
// A stop is an allowance of 0 that lives as long as the network allows: while the entry exists the
// service reads it as revoked by the subscriber (not expired), and cancels.
import { useState } from 'preact/hooks';
import { api, errorText } from '../api/client.ts';
import {
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
import { dateTime, formatUnits, intervalWords } from '../format.ts';
import { connectFreighter } from '../wallet/freighter.ts';
import { connectLocal } from '../wallet/local.ts';
import type { ConnectedWallet } from '../wallet/wallet.ts';
import { allowanceLedgers, maxCycles } from './checkout.tsx';

type Sub = {
  id: string;
  status: string;
  next_billing_date: string;
  plan: { name: string; token_amount: number; interval_seconds: number; token_contract_id: string | null };
  merchant: { name: string; wallet_address: string };
};

type Group = {
  token: string;
  decimals: number;
  symbol: string;
  subs: Sub[];
  allowance: bigint;
  expiresAt: Date | null;
};

const message = (wallet: string, at: string) => `Show my subscriptions\nwallet: ${wallet}\nat: ${at}`;

export function ManagePage() {
  const cfg = pageConfig();
  const [wallet, setWallet] = useState<ConnectedWallet | null>(null);
  const [groups, setGroups] = useState<Group[] | null>(null);
  const [status, setStatus] = useState<{ kind: 'busy' | 'ok' | 'error'; text: string } | null>(null);
  const [cycles, setCycles] = useState(6);

  async function load(w: ConnectedWallet) {
    const at = new Date().toISOString();
    setStatus({ kind: 'busy', text: 'Waiting for your wallet to sign the sign-in message…' });
    const signature = await w.signMessage(message(w.address, at));
    const { data, error, response } = await api.POST('/subscriber/subscriptions', {
      body: { wallet: w.address, signed_at: at, signature },
    });
    if (!data) throw new ChainStepError(errorText(error, response));
    const byToken = new Map<string, Sub[]>();
    for (const s of data.subscriptions as Sub[]) {
      const token = s.plan.token_contract_id;
      if (token) byToken.set(token, [...(byToken.get(token) ?? []), s]);
    }
    const out: Group[] = [];
    for (const [token, subs] of byToken) {
      const info = await tokenInfo(cfg, token, w.address);
      const a = cfg.vault_contract_id
        ? await readAllowance(cfg, token, w.address, cfg.vault_contract_id)
        : { amount: 0n, liveUntilLedger: null, latestLedger: 0 };
      const expiresAt =
        a.liveUntilLedger === null
          ? null
          : new Date(Date.now() + (a.liveUntilLedger - a.latestLedger) * LEDGER_SECONDS * 1000);
      out.push({ token, ...info, subs, allowance: a.amount, expiresAt });
    }
    setGroups(out);
    setStatus(null);
  }

  async function connect(kind: 'freighter' | 'local') {
    try {
      setStatus({ kind: 'busy', text: 'Connecting to your wallet…' });
      const w = kind === 'freighter' ? await connectFreighter(cfg.network_passphrase) : await connectLocal(cfg, 0n);
      setWallet(w);
      await load(w);
    } catch (err) {
      setStatus({ kind: 'error', text: `Failed: ${(err as Error).message}` });
    }
  }

  async function approve(g: Group, amount: bigint, ledgers: number, what: string) {
    if (!wallet || !cfg.vault_contract_id) return;
    try {
      const live = (await latestLedger(cfg)) + ledgers;
      await invoke(
        cfg,
        wallet.address,
        g.token,
        'approve',
        args.approve(wallet.address, cfg.vault_contract_id, amount, live),
        wallet.sign,
        (s) =>
          setStatus({
            kind: 'busy',
            text: s === 'signing' ? `Waiting for your signature (${what})…` : `Submitting (${what})…`,
          }),
      );
      await load(wallet);
      setStatus({ kind: 'ok', text: `${what}: confirmed on chain.` });
    } catch (err) {
      setStatus({ kind: 'error', text: `Failed: ${(err as Error).message}` });
    }
  }

  return (
    <main class="narrow">
      <p class="brand">Your subscriptions</p>
      <h1>Manage your subscriptions</h1>
      {!wallet && (
        <section class="card" aria-labelledby="connect-title">
          <h2 id="connect-title">Connect your wallet</h2>
          <p>
            No account needed: your wallet signs a short message to show it is yours. Nothing is sent to the network.
          </p>
          <div class="actions">
            <button type="button" onClick={() => connect('freighter')}>
              Connect Freighter
            </button>
            {cfg.local_wallet && (
              <button type="button" class="secondary" onClick={() => connect('local')}>
                Use the local test wallet
              </button>
            )}
          </div>
        </section>
      )}
      {status && (
        <p
          role={status.kind === 'error' ? 'alert' : 'status'}
          class={`notice ${status.kind === 'error' ? 'error' : status.kind === 'ok' ? 'ok' : ''}`}
          data-testid="manage-status"
        >
          {status.text}
        </p>
      )}
      {wallet && <p class="hint">Wallet: {wallet.address}</p>}
      {groups && groups.length === 0 && (
        <p data-testid="no-subscriptions">This wallet has no subscriptions with this service's merchants.</p>
      )}
      {groups && groups.length > 0 && (
        <>
          <label for="renew-cycles">Payments a renewed allowance covers per subscription</label>
          <input
            id="renew-cycles"
            type="number"
            min={1}
            value={cycles}
            onInput={(e) => setCycles(Math.max(1, Number((e.target as HTMLInputElement).value) || 1))}
          />
        </>
      )}
      {groups?.map((g) => {
        const live = g.subs.filter((s) => s.status !== 'canceled');
        const perCycle = live.reduce((sum, s) => sum + BigInt(s.plan.token_amount), 0n);
        const shortest = Math.min(...live.map((s) => s.plan.interval_seconds), Number.MAX_SAFE_INTEGER);
        const n = live.length ? Math.min(cycles, maxCycles(shortest)) : 1;
        const covers = perCycle > 0n ? g.allowance / perCycle : 0n;
        return (
          <section
            class="card"
            key={g.token}
            aria-label={`Subscriptions paid in ${g.symbol}`}
            data-testid="token-group"
          >
            <h2>Paid in {g.symbol}</h2>
            <ul>
              {g.subs.map((s) => (
                <li key={s.id}>
                  <strong>{s.merchant.name}</strong>, {s.plan.name}:{' '}
                  {formatUnits(BigInt(s.plan.token_amount), g.decimals)} {g.symbol}{' '}
                  {intervalWords(s.plan.interval_seconds)} · <span class={`badge ${s.status}`}>{s.status}</span> · next{' '}
                  {dateTime(s.next_billing_date)}
                </li>
              ))}
            </ul>
            <p data-testid="allowance-left">
              Allowance left:{' '}
              <strong>
                {formatUnits(g.allowance, g.decimals)} {g.symbol}
              </strong>
              {perCycle > 0n && ` (about ${covers} more cycles)`}
              {g.expiresAt && g.allowance > 0n ? `, expires about ${g.expiresAt.toUTCString()}` : ''}. One allowance
              covers every subscription paid in {g.symbol}.
            </p>
            <div class="actions">
              <button
                type="button"
                disabled={status?.kind === 'busy' || live.length === 0}
                onClick={() =>
                  approve(
                    g,
                    perCycle * BigInt(n),
                    allowanceLedgers(n, shortest),
                    `renew: allow ${formatUnits(perCycle * BigInt(n), g.decimals)} ${g.symbol}`,
                  )
                }
              >
                Renew for {n} payments
              </button>
              <button
                type="button"
                class="danger"
                disabled={status?.kind === 'busy' || g.allowance === 0n}
                onClick={() => approve(g, 0n, MAX_ENTRY_TTL - 1, 'stop paying: allowance to 0')}
              >
                Stop paying in {g.symbol}
              </button>
            </div>
            <p class="hint">
              Stopping sets the allowance to 0: the service cancels these subscriptions at their next billing attempt.
            </p>
          </section>
        );
      })}
    </main>
  );
}
