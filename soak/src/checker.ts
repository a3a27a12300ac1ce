// The independent checker: what the local network says happened (every transaction it accepted,
// from its control API, and each included pull's effects, through getTransaction) against what
// the service recorded (its PostgreSQL tables, read with plain SQL) and what its HTTP answers
// told the drivers. It knows the service only by its schema and its API, never by its code.
import pg from 'pg';
import { type ChainTx, getTxs } from './chain.ts';

export interface DriverAnswer {
  subscriptionId: string;
  status: number;
  txHash?: string;
  code?: string;
  at: number;
}

export interface Violation {
  invariant: string;
  detail: string;
}

export interface SubscriptionFacts {
  id: string;
  /** Excluded from liveness: a fault left the subscriber unable to pay. */
  impaired?: string;
}

export interface CheckInput {
  databaseUrl: string;
  rpcUrl: string;
  controlUrl: string;
  vault: string;
  answers: DriverAnswer[];
  subscriptions: SubscriptionFacts[];
  /** When faults stopped (ms): liveness is judged from here. */
  faultsEndedAt: number;
}

interface DevnetTx {
  hash: string;
  function: string;
  contract: string;
  args: string[];
  status: string;
  ledger?: number;
}

interface PullRow {
  id: string;
  subscription_id: string;
  amount: string;
  tx_hash: string | null;
  status: string;
  origin: string;
  resolved_at: Date | null;
  created_at: Date;
}

interface SubRow {
  id: string;
  status: string;
  next_billing_date: Date;
  customer_wallet_address: string;
  interval_seconds: number;
  merchant_wallet: string;
}

export const INVARIANTS = {
  'no-double-pull': 'no vault pulled twice within its interval (on chain)',
  'chain-pull-recorded':
    'every successful pull_funds on chain is exactly one confirmed pull with its hash and the amount that moved',
  'confirmed-on-chain':
    'no confirmed pull without its successful transaction (and no failed/expired pull whose transaction succeeded)',
  'failed-recorded': 'every failed pull_funds on chain is recorded failed',
  resolved: 'every attempt resolved (none pending after the drain)',
  liveness: 'every due subscription whose subscriber could pay was collected after the faults stopped',
  schedule: 'next_billing_date = last confirmed pull + interval, and the status agrees with the history',
  'http-agrees': "every HTTP answer agrees with the final record (200's hash confirmed, 502's failed, 202's recorded)",
  'event-once': 'each confirmed pull has exactly one pull.succeeded event (outcome applied once)',
} as const;

export interface CheckResult {
  violations: Violation[];
  counts: Record<string, number>;
}

export async function check(input: CheckInput): Promise<CheckResult> {
  const violations: Violation[] = [];
  const v = (invariant: keyof typeof INVARIANTS, detail: string) => violations.push({ invariant, detail });

  const db = new pg.Client({ connectionString: input.databaseUrl });
  await db.connect();
  let pulls: PullRow[];
  let subs: SubRow[];
  let succeededEvents: Map<string, number>;
  try {
    pulls = (
      await db.query<PullRow>(
        `SELECT id, subscription_id, amount::text AS amount, tx_hash, status, origin, resolved_at, created_at FROM pulls`,
      )
    ).rows;
    subs = (
      await db.query<SubRow>(
        `SELECT s.id, s.status, s.next_billing_date, s.customer_wallet_address, p.interval_seconds,
                m.wallet_address AS merchant_wallet
           FROM subscriptions s JOIN plans p ON p.id = s.plan_id JOIN merchants m ON m.id = p.merchant_id`,
      )
    ).rows;
    succeededEvents = new Map(
      (
        await db.query<{ object_id: string; n: string }>(
          `SELECT object_id, count(*) AS n FROM events WHERE type = 'pull.succeeded' GROUP BY object_id`,
        )
      ).rows.map((r) => [r.object_id, Number(r.n)]),
    );
  } finally {
    await db.end();
  }

  const res = await fetch(`${input.controlUrl}/transactions`);
  const all = (await res.json()) as DevnetTx[];
  const merchantWallets = new Set(subs.map((s) => s.merchant_wallet));
  const chainPulls = all.filter(
    (t) => t.function === 'pull_funds' && t.contract === input.vault && merchantWallets.has(t.args[1] ?? ''),
  );
  const byHash = new Map(chainPulls.map((t) => [t.hash, t]));
  const included = chainPulls.filter((t) => t.status === 'success' || t.status === 'failed');
  const details: Map<string, ChainTx> = await getTxs(
    input.rpcUrl,
    included.map((t) => t.hash),
  );
  const subByParties = new Map(subs.map((s) => [`${s.customer_wallet_address}/${s.merchant_wallet}`, s]));
  const subById = new Map(subs.map((s) => [s.id, s]));
  const pullsByHash = new Map<string, PullRow[]>();
  for (const p of pulls) if (p.tx_hash) pullsByHash.set(p.tx_hash, [...(pullsByHash.get(p.tx_hash) ?? []), p]);

  // no-double-pull: consecutive successful pulls of one vault at least its interval apart.
  const perVault = new Map<string, ChainTx[]>();
  for (const t of included) {
    if (t.status !== 'success') continue;
    const key = `${t.args[0]}/${t.args[1]}`;
    perVault.set(key, [...(perVault.get(key) ?? []), details.get(t.hash)!]);
  }
  for (const [key, txs] of perVault) {
    const sub = subByParties.get(key);
    if (!sub) continue;
    txs.sort((a, b) => (a.ledger ?? 0) - (b.ledger ?? 0));
    for (let i = 1; i < txs.length; i++) {
      const gap = (txs[i]!.closeTime ?? 0) - (txs[i - 1]!.closeTime ?? 0);
      if (gap < sub.interval_seconds)
        v(
          'no-double-pull',
          `vault ${key}: ${txs[i - 1]!.hash} and ${txs[i]!.hash} ${gap}s apart (interval ${sub.interval_seconds}s)`,
        );
    }
  }

  // chain-pull-recorded / failed-recorded
  for (const t of included) {
    const rows = pullsByHash.get(t.hash) ?? [];
    const d = details.get(t.hash)!;
    if (t.status === 'success') {
      const confirmed = rows.filter((r) => r.status === 'confirmed');
      if (confirmed.length !== 1 || rows.length !== 1) {
        v(
          'chain-pull-recorded',
          `${t.hash} succeeded on chain; database has ${rows.map((r) => r.status).join(',') || 'nothing'}`,
        );
        continue;
      }
      const moved = d.transfers.filter((x) => x.from === t.args[0] && x.to === t.args[1]);
      const amount = moved.reduce((a, x) => a + x.amount, 0n);
      if (moved.length !== 1 || String(amount) !== confirmed[0]!.amount)
        v(
          'chain-pull-recorded',
          `${t.hash}: transfer ${amount} (${moved.length} events) vs recorded ${confirmed[0]!.amount}`,
        );
    } else if (!rows.some((r) => r.status === 'failed'))
      v(
        'failed-recorded',
        `${t.hash} failed on chain; database has ${rows.map((r) => r.status).join(',') || 'nothing'}`,
      );
  }

  // confirmed-on-chain and the other terminal statuses against the network's record.
  for (const p of pulls) {
    if (!p.tx_hash) continue;
    const t = byHash.get(p.tx_hash);
    if (p.status === 'confirmed' && t?.status !== 'success')
      v('confirmed-on-chain', `pull ${p.id} confirmed; ${p.tx_hash} on chain: ${t?.status ?? 'never accepted'}`);
    if ((p.status === 'expired' || p.status === 'rejected' || p.status === 'failed') && t?.status === 'success')
      v('confirmed-on-chain', `pull ${p.id} ${p.status}; ${p.tx_hash} succeeded on chain`);
  }

  // resolved
  for (const p of pulls) if (p.status === 'pending') v('resolved', `pull ${p.id} (${p.tx_hash}) still pending`);

  // schedule and status against the history
  const bySub = new Map<string, PullRow[]>();
  for (const p of pulls) bySub.set(p.subscription_id, [...(bySub.get(p.subscription_id) ?? []), p]);
  for (const s of subs) {
    const history = (bySub.get(s.id) ?? []).filter((p) => p.resolved_at);
    const confirmed = history.filter((p) => p.status === 'confirmed');
    const last = confirmed.reduce<PullRow | undefined>(
      (a, p) => (!a || p.resolved_at!.getTime() > a.resolved_at!.getTime() ? p : a),
      undefined,
    );
    if (last) {
      const want = last.resolved_at!.getTime() + s.interval_seconds * 1000;
      if (s.next_billing_date.getTime() !== want)
        v(
          'schedule',
          `subscription ${s.id}: next_billing_date ${s.next_billing_date.toISOString()}, last confirmed ${last.resolved_at!.toISOString()} + ${s.interval_seconds}s`,
        );
    }
    const after = history.filter((p) => !last || p.resolved_at!.getTime() > last.resolved_at!.getTime());
    if (s.status === 'active' && after.some((p) => p.status === 'failed'))
      v('schedule', `subscription ${s.id} active after a failed pull with no confirmed one since`);
    if ((s.status === 'past_due' || s.status === 'unpaid') && !after.some((p) => p.status !== 'confirmed'))
      v('schedule', `subscription ${s.id} ${s.status} though its last attempt was confirmed`);
  }

  // liveness: collected after the faults stopped (or at most ~an interval and a minute before).
  const impaired = new Map(input.subscriptions.map((s) => [s.id, s.impaired]));
  for (const s of subs) {
    if (impaired.get(s.id)) continue;
    const slackMs = (2 * s.interval_seconds + 60) * 1000;
    const collected = (bySub.get(s.id) ?? []).some((p) => p.status === 'confirmed');
    if (!collected) v('liveness', `subscription ${s.id} (payable) never collected`);
    else if (s.next_billing_date.getTime() + slackMs < input.faultsEndedAt)
      v(
        'liveness',
        `subscription ${s.id} (payable) due since ${s.next_billing_date.toISOString()}, not collected after the faults stopped`,
      );
  }

  // http-agrees
  for (const a of input.answers) {
    if (!a.txHash) continue;
    const rows = pullsByHash.get(a.txHash) ?? [];
    if (a.status === 200 && !rows.some((r) => r.status === 'confirmed'))
      v('http-agrees', `200 for ${a.txHash} but the record says ${rows.map((r) => r.status).join(',') || 'nothing'}`);
    if (a.status === 502 && !rows.some((r) => r.status === 'failed'))
      v('http-agrees', `502 for ${a.txHash} but the record says ${rows.map((r) => r.status).join(',') || 'nothing'}`);
    if (a.status === 202 && rows.length === 0) v('http-agrees', `202 for ${a.txHash} but no attempt recorded`);
    if (rows.length && rows[0]!.subscription_id !== a.subscriptionId)
      v('http-agrees', `${a.txHash} answered for ${a.subscriptionId} but recorded for ${rows[0]!.subscription_id}`);
  }

  // event-once
  for (const p of pulls) {
    const n = succeededEvents.get(p.id) ?? 0;
    if (p.status === 'confirmed' && n !== 1) v('event-once', `pull ${p.id} confirmed with ${n} pull.succeeded events`);
    if (p.status !== 'confirmed' && n > 0) v('event-once', `pull ${p.id} ${p.status} with ${n} pull.succeeded events`);
  }
  if (subById.size === 0) v('liveness', 'no subscriptions in the database');

  const count = (f: (p: PullRow) => boolean) => pulls.filter(f).length;
  return {
    violations,
    counts: {
      'attempts recorded': pulls.length,
      'confirmed pulls': count((p) => p.status === 'confirmed'),
      'failed pulls': count((p) => p.status === 'failed'),
      'expired attempts': count((p) => p.status === 'expired'),
      'rejected attempts': count((p) => p.status === 'rejected'),
      'skipped (pre-flight)': count((p) => p.status === 'skipped'),
      'collector attempts': count((p) => p.origin === 'collector'),
      'pull_funds accepted by the network': chainPulls.length,
      'pull_funds succeeded on chain': included.filter((t) => t.status === 'success').length,
      'pull_funds failed on chain': included.filter((t) => t.status === 'failed').length,
      'pull_funds dropped/expired/evicted': chainPulls.filter(
        (t) => !['success', 'failed', 'queued'].includes(t.status),
      ).length,
    },
  };
}
