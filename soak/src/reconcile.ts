// The books, reconciled against the chain: every confirmed pull matched to its on-chain transfer
// (the token's CAP-67 `transfer` event names subscriber → merchant, the vault is only the spender),
// and every pull_funds transaction that moved funds to a merchant matched to a confirmed pull.
// The chain is read through Soroban RPC only (getEvents within retention, getTransaction per
// hash), the database with plain SQL on the service's schema. Shares no code with the service.
import pg from 'pg';
import { getTxs, health, transferEvents } from './chain.ts';

export interface ReconcileOptions {
  databaseUrl: string;
  rpcUrl: string;
  /** The vault contract (CONTRACT_ID): a transfer is a pull when its transaction calls pull_funds here. */
  vault: string;
  since: Date;
  merchantId?: string;
  /** A ledger at or before `since` when the caller knows one; else the RPC's oldest ledger. */
  startLedger?: number;
}

export interface MerchantBooks {
  merchantId: string;
  name: string;
  wallet: string;
  confirmed: number;
  matched: number;
  collected: bigint;
  /** Confirmed pulls too old for the RPC to show (before its retention window). */
  beyondRetention: number;
}

export interface ReconcileReport {
  since: Date;
  window: { oldestLedger: number; latestLedger: number };
  merchants: MerchantBooks[];
  matched: number;
  mismatches: string[];
}

interface Row {
  id: string;
  merchant_id: string;
  tx_hash: string;
  amount: string;
  ledger: number | null;
  resolved_at: Date;
  customer: string;
  wallet: string;
  name: string;
  token: string | null;
}

export async function reconcile(o: ReconcileOptions): Promise<ReconcileReport> {
  const db = new pg.Client({ connectionString: o.databaseUrl });
  await db.connect();
  let pulls: Row[];
  let merchants: { id: string; name: string; wallet_address: string }[];
  let tokens: string[];
  try {
    const args: unknown[] = [o.since];
    if (o.merchantId) args.push(o.merchantId);
    const byMerchant = o.merchantId ? 'AND m.id = $2' : '';
    pulls = (
      await db.query<Row>(
        `SELECT p.id, p.merchant_id, p.tx_hash, p.amount::text AS amount, p.ledger, p.resolved_at,
                s.customer_wallet_address AS customer, m.wallet_address AS wallet, m.name,
                COALESCE(p.token_contract_id, pl.token_contract_id) AS token
           FROM pulls p JOIN subscriptions s ON s.id = p.subscription_id JOIN plans pl ON pl.id = s.plan_id
           JOIN merchants m ON m.id = p.merchant_id
          WHERE p.status = 'confirmed' AND p.resolved_at >= $1 ${byMerchant}`,
        args,
      )
    ).rows;
    merchants = (
      await db.query(
        `SELECT id, name, wallet_address FROM merchants ${o.merchantId ? 'WHERE id = $1' : ''}`,
        o.merchantId ? [o.merchantId] : [],
      )
    ).rows;
    tokens = (
      await db.query<{ t: string }>(
        `SELECT DISTINCT token_contract_id AS t FROM plans WHERE token_contract_id IS NOT NULL`,
      )
    ).rows.map((r) => r.t);
  } finally {
    await db.end();
  }

  const mismatches: string[] = [];
  const h = await health(o.rpcUrl);
  const start = Math.max(h.oldestLedger, o.startLedger ?? h.oldestLedger);
  const events = tokens.length ? await transferEvents(o.rpcUrl, tokens, start) : [];
  const sinceS = o.since.getTime() / 1000;
  const wallets = new Map(merchants.map((m) => [m.wallet_address, m]));
  const toMerchants = events.filter((e) => wallets.has(e.to) && Date.parse(e.closedAt) / 1000 >= sinceS - 60);
  // Which of those transactions are pull_funds on our vault: read each transaction's envelope.
  const txs = await getTxs(o.rpcUrl, [...new Set(toMerchants.map((e) => e.txHash))]);
  const pullEvents = toMerchants.filter((e) => {
    const t = txs.get(e.txHash);
    return t?.contract === o.vault && t.fn === 'pull_funds';
  });
  const eventsByHash = new Map<string, typeof pullEvents>();
  for (const e of pullEvents) eventsByHash.set(e.txHash, [...(eventsByHash.get(e.txHash) ?? []), e]);

  const books = new Map<string, MerchantBooks>(
    merchants.map((m) => [
      m.id,
      {
        merchantId: m.id,
        name: m.name,
        wallet: m.wallet_address,
        confirmed: 0,
        matched: 0,
        collected: 0n,
        beyondRetention: 0,
      },
    ]),
  );
  const pullHashes = new Set<string>();
  let matched = 0;
  for (const p of pulls) {
    const b = books.get(p.merchant_id)!;
    b.confirmed++;
    pullHashes.add(p.tx_hash);
    if (p.ledger !== null && p.ledger < h.oldestLedger) {
      b.beyondRetention++;
      continue;
    }
    const evs = eventsByHash.get(p.tx_hash) ?? [];
    if (evs.length !== 1) {
      mismatches.push(`confirmed pull ${p.id} (${p.tx_hash}): ${evs.length} transfer events to the merchant on chain`);
      continue;
    }
    const e = evs[0]!;
    if (e.from !== p.customer || e.to !== p.wallet || String(e.amount) !== p.amount) {
      mismatches.push(
        `confirmed pull ${p.id} (${p.tx_hash}): recorded ${p.amount} ${p.customer} → ${p.wallet}, chain ${e.amount} ${e.from} → ${e.to}`,
      );
      continue;
    }
    b.matched++;
    b.collected += e.amount;
    matched++;
  }
  for (const [hash, evs] of eventsByHash) {
    if (pullHashes.has(hash)) continue;
    // A pull landed before `since` but resolved after it is in `pulls`; one resolved before
    // `since` is outside the report, so only transfers in ledgers after `since` count.
    const e = evs[0]!;
    if (Date.parse(e.closedAt) / 1000 < sinceS) continue;
    mismatches.push(`pull_funds ${hash} moved ${e.amount} ${e.from} → ${e.to} on chain; no confirmed pull records it`);
  }
  return {
    since: o.since,
    window: { oldestLedger: h.oldestLedger, latestLedger: h.latestLedger },
    merchants: [...books.values()],
    matched,
    mismatches,
  };
}
