// Congestion: other accounts' high-fee Soroban transactions that keep the queue full for the next
// `ledgers` ledgers, so that the network's own rules (tx/queue.ts, after stellar-core's
// TransactionQueue / TxQueueLimiter / SurgePricingUtils) refuse a low bid (ERROR
// txINSUFFICIENT_FEE naming the fee that would do, and a 10-ledger ban of that envelope), let a
// higher one in by evicting a cheaper transaction, and fill each of those ledgers so surge
// pricing sets their base fee (getFeeStats then reports it).
//
// Before each congested ledger (now, and after every close inside the window) up to `perLedger`
// transactions arrive through the queue's admission rules (canAdd: capacity, eviction of lower
// bids). Each is a token `decimals()` call from its own derived account with inclusion fee `fee`,
// and carries a ledger bound (PreconditionsV2.ledgerBounds.maxLedger) that ends with the window,
// so whatever is left in the queue afterwards becomes invalid and is dropped at the next ledger.
import { Account, type Keypair, Operation, TimeoutInfinite, TransactionBuilder } from '@stellar/stellar-sdk';
import { accountEntry, FRIENDBOT_XLM, seqOf } from '../ledger/accounts.ts';
import { deriveKeypair } from '../network/genesis.ts';
import type { QueuedTx } from '../ledger/history.ts';
import { accountKey, keyId } from '../ledger/keys.ts';
import type { Network } from '../network/network.ts';
import { parseEnvelope } from '../tx/parse.ts';
import { add, canAdd, queueFields } from '../tx/queue.ts';
import { fullHash, txHash } from '../tx/signatures.ts';
import { simulateTransaction } from '../tx/simulate.ts';

export type CongestionRequest = { ledgers: number; perLedger?: number; fee?: number };

export type CongestionState = {
  /** Last congested ledger (inclusive). */
  toLedger: number;
  perLedger: number;
  /** Inclusion fee bid of each congestion transaction, stroops. */
  fee: string;
};

export type CongestionReply = CongestionState & { fromLedger: number; queued: number };

export const DEFAULT_CONGESTION_FEE = 10_000;
const STATE = 'congestion';
const MAX_LEDGERS = 10_000;

export function parseCongestion(body: Record<string, unknown>): CongestionRequest {
  const ledgers = Number(body.ledgers);
  if (!Number.isInteger(ledgers) || ledgers < 1 || ledgers > MAX_LEDGERS)
    throw new Error(`ledgers must be an integer from 1 to ${MAX_LEDGERS}`);
  const out: CongestionRequest = { ledgers };
  if (body.perLedger !== undefined) {
    const n = Number(body.perLedger);
    if (!Number.isInteger(n) || n < 1 || n > 10_000) throw new Error('perLedger must be an integer from 1 to 10000');
    out.perLedger = n;
  }
  if (body.fee !== undefined) {
    const f = Number(body.fee);
    if (!Number.isInteger(f) || f < 100 || f > 1_000_000_000)
      throw new Error('fee must be an integer from 100 to 1000000000 (stroops)');
    out.fee = f;
  }
  return out;
}

/** Arms congestion for the next `ledgers` ledgers and loads the queue for the first of them. */
export function congest(net: Network, req: CongestionRequest): CongestionReply {
  installHook(net);
  const state: CongestionState = {
    toLedger: net.latest.sequence + req.ledgers,
    // Default: the queue's whole transaction-count capacity (2 ledgers' worth), so it is full.
    perLedger: req.perLedger ?? 2 * net.config.ledgerMaxTxCount,
    fee: String(req.fee ?? DEFAULT_CONGESTION_FEE),
  };
  net.extra.set(STATE, state);
  const queued = topUp(net);
  return { fromLedger: net.latest.sequence + 1, ...state, queued };
}

const hooked = new WeakSet<Network>();

function installHook(net: Network): void {
  if (hooked.has(net)) return;
  hooked.add(net);
  net.closeHooks.push((n) => {
    topUp(n);
  });
}

/** Adds congestion transactions for the next ledger while the window lasts; returns how many. */
function topUp(net: Network): number {
  const state = net.extra.get(STATE) as CongestionState | undefined;
  if (!state) return 0;
  if (net.latest.sequence >= state.toLedger) {
    net.extra.delete(STATE);
    return 0;
  }
  const template = templateData(net);
  const busy = new Set(net.queue.map((q) => q.source));
  let added = 0;
  for (let i = 0; added < state.perLedger && i < state.perLedger * 4; i++) {
    const kp = congestionAccount(net, i);
    if (busy.has(kp.publicKey())) continue;
    const q = buildTx(net, kp, BigInt(state.fee), template, state.toLedger + 1);
    // Arrivals the full queue would refuse are not sent (so no ban of a congestion envelope).
    const ok = canAdd(net, q, false, { dryRun: true });
    // A banned envelope (one evicted earlier) is skipped; a refusal means the queue is full.
    if (ok.kind === 'TRY_AGAIN_LATER') continue;
    if (ok.kind !== 'ok') break;
    add(net, q, ok);
    busy.add(kp.publicKey());
    added++;
  }
  return added;
}

const keypairs = new Map<number, Keypair>();

function congestionAccount(net: Network, i: number): Keypair {
  let kp = keypairs.get(i);
  if (!kp) {
    kp = deriveKeypair(`congestion/${i}`);
    keypairs.set(i, kp);
  }
  const id = keyId(accountKey(kp.publicKey()));
  if (!net.state.get(id)) {
    const seq = net.latest.sequence;
    net.state.set(id, { data: accountEntry(kp.publicKey(), FRIENDBOT_XLM, BigInt(seq) << 32n), lastModified: seq });
  }
  return kp;
}

const decimalsOp = (token: string) =>
  Operation.invokeContractFunction({ contract: token, function: 'decimals', args: [] });

/** The Soroban data of a `decimals()` call, from the devnet's own simulation (the same for every account). */
function templateData(net: Network): string {
  const kp = congestionAccount(net, 0);
  const account = net.state.get(keyId(accountKey(kp.publicKey())))!;
  const tx = new TransactionBuilder(new Account(kp.publicKey(), seqOf(account.data).toString()), {
    fee: '100',
    networkPassphrase: net.passphrase,
  })
    .addOperation(decimalsOp(net.genesis.token))
    .setTimeout(TimeoutInfinite)
    .build();
  const sim = simulateTransaction(net, { transaction: tx.toXDR() });
  if (typeof sim.error === 'string') throw new Error(`congestion simulation failed: ${sim.error}`);
  return String(sim.transactionData);
}

function buildTx(net: Network, kp: Keypair, fee: bigint, data: string, maxLedger: number): QueuedTx {
  const account = net.state.get(keyId(accountKey(kp.publicKey())))!;
  // The builder adds setSorobanData's resource fee to this inclusion fee (SDK 17).
  const tx = new TransactionBuilder(new Account(kp.publicKey(), seqOf(account.data).toString()), {
    fee: String(fee),
    networkPassphrase: net.passphrase,
    ledgerbounds: { minLedger: 0, maxLedger },
  })
    .addOperation(decimalsOp(net.genesis.token))
    .setTimeout(TimeoutInfinite)
    .setSorobanData(data)
    .build();
  tx.sign(kp);
  const envelopeXdr = tx.toXDR();
  const parsed = parseEnvelope(envelopeXdr);
  const hash = txHash(net.networkId, parsed.tx).toString('hex');
  return {
    ...queueFields(parsed, envelopeXdr),
    hash,
    fullHash: fullHash(parsed.envelope),
    includeAt: net.latest.sequence + 1,
    age: 0,
    submission: {
      hash,
      source: kp.publicKey(),
      function: 'decimals',
      contract: net.genesis.token,
      args: [],
      status: 'queued',
    },
    traffic: true,
  };
}
