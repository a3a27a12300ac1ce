// The real VaultGateway: Soroban RPC over HTTP(S) through @stellar/stellar-sdk's rpc.Server.
// Round trips per confirmed pull: simulate, send, and usually one getTransaction timed to land
// just after the next ledger closes; getAccount only when this process has no sequence cached.
import { rpc, TransactionBuilder, type Transaction } from '@stellar/stellar-sdk';
import {
  PullRejection,
  type MerchantKey,
  type SignedPull,
  type TxObservation,
  type VaultGateway,
} from '../billing/pulls/vault-gateway.ts';
import { classifySimulationFailure, type VaultFacts } from './chain-errors.ts';
import { LedgerClock } from './ledger-clock.ts';
import { asSigningKey, parseSecret } from './merchant-key.ts';
import { buildPullTransaction } from './pull-transaction.ts';
import { rpcErrorText } from './rpc-text.ts';
import { SequenceCache, SourceQueues } from './source-queue.ts';
import { timedRpc, type RpcCallObserver } from './timed-rpc.ts';
import { readVault } from './vault-state.ts';

export interface ChainConfig {
  rpcUrl: string;
  networkPassphrase: string;
  /** Upper bound between confirmation polls. */
  pollIntervalMs: number;
  /** Optional: told the duration of every RPC call (the metrics' latency histogram). */
  onRpcCall?: RpcCallObserver;
}

/** Core refuses a transaction that would expire within about two ledgers (txTOO_LATE). */
const SUBMIT_SAFETY_SECONDS = 10;
const MIN_POLL_DELAY_MS = 20;
/** How long after a predicted ledger close we look, to let the RPC ingest it. */
const POLL_GRACE_MS = 40;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

export function createSorobanGateway(config: ChainConfig): VaultGateway {
  const server = timedRpc(new rpc.Server(config.rpcUrl, { allowHttp: config.rpcUrl.startsWith('http://') }), config.onRpcCall);
  const queues = new SourceQueues();
  const sequences = new SequenceCache();
  const clock = new LedgerClock();
  const sent = new Map<string, { source: string; sequence: bigint; latestLedger: number }>();
  const polls = new Map<string, Promise<TxObservation>>();

  async function vaultFacts(contractId: string, user: string, merchant: string): Promise<VaultFacts | undefined> {
    try {
      const [vault, latest] = await Promise.all([readVault(server, contractId, user, merchant), server.getLatestLedger()]);
      return { vault, ledgerTime: BigInt(latest.closeTime) };
    } catch {
      return undefined; // could not establish anything: the chain's text stands alone
    }
  }

  async function currentSequence(source: string): Promise<bigint> {
    const cached = sequences.get(source);
    if (cached !== undefined) return cached;
    const account = await server.getAccount(source);
    return BigInt(account.sequenceNumber());
  }

  async function preparePull(input: { key: MerchantKey; user: string; contractId: string }): Promise<SignedPull> {
    const key = asSigningKey(input.key);
    const merchant = key.publicKey;
    let tx: Transaction;
    let simulation: rpc.Api.SimulateTransactionResponse;
    try {
      const sequence = await currentSequence(merchant);
      tx = buildPullTransaction({ ...input, merchant, sequence, networkPassphrase: config.networkPassphrase });
      simulation = await server.simulateTransaction(tx);
    } catch (err) {
      throw new PullRejection('simulation_failed', rpcErrorText(err));
    }
    if (rpc.Api.isSimulationError(simulation)) {
      const facts = await vaultFacts(input.contractId, input.user, merchant);
      throw classifySimulationFailure(simulation, facts);
    }
    const prepared = rpc.assembleTransaction(tx, simulation).build();
    key.sign(prepared);
    return {
      hash: prepared.hash().toString('hex'),
      envelopeXdr: prepared.toXDR(),
      maxTime: Number(prepared.timeBounds?.maxTime ?? 0),
      source: merchant,
      sequence: prepared.sequence,
    };
  }

  async function send(pull: SignedPull): Promise<void> {
    const tx = TransactionBuilder.fromXDR(pull.envelopeXdr, config.networkPassphrase);
    for (;;) {
      let res: rpc.Api.SendTransactionResponse;
      try {
        res = await server.sendTransaction(tx);
      } catch (err) {
        // The request may have reached the network: the outcome is unknown, not a rejection.
        throw new PullRejection('submission_failed', rpcErrorText(err), { definitelyNotSent: false });
      }
      clock.observe(res.latestLedger, Number(res.latestLedgerCloseTime));
      if (res.status === 'PENDING' || res.status === 'DUPLICATE') {
        sent.set(pull.hash, { source: pull.source, sequence: BigInt(pull.sequence), latestLedger: res.latestLedger });
        return;
      }
      if (res.status === 'TRY_AGAIN_LATER') {
        // Another transaction of this source is queued (another replica, or a late one of ours):
        // the same envelope is accepted once that one is in a ledger, while the time bound allows.
        const predicted = clock.nextPollAt(res.latestLedger, POLL_GRACE_MS);
        const retryAt = Number.isNaN(predicted) ? Date.now() + config.pollIntervalMs : predicted;
        if (retryAt / 1000 + SUBMIT_SAFETY_SECONDS < pull.maxTime) {
          await sleep(retryAt - Date.now());
          continue;
        }
        throw new PullRejection('submission_failed', 'sendTransaction answered TRY_AGAIN_LATER until the time bound');
      }
      const code = res.errorResult?.result().switch().name ?? 'unknown';
      sequences.forget(pull.source);
      throw new PullRejection('submission_failed', `sendTransaction answered ERROR: ${code}`, {
        staleSequence: code === 'txBadSeq',
      });
    }
  }

  async function observe(hash: string): Promise<TxObservation> {
    const res = await server.getTransaction(hash);
    const latestLedgerCloseTime = Number(res.latestLedgerCloseTime);
    clock.observe(res.latestLedger, latestLedgerCloseTime);
    const base = { latestLedger: res.latestLedger, latestLedgerCloseTime };
    if (res.status === rpc.Api.GetTransactionStatus.NOT_FOUND) return { status: 'NOT_FOUND', ...base };
    const mine = sent.get(hash);
    if (mine) {
      sequences.included(mine.source, mine.sequence);
      sent.delete(hash);
    }
    return { status: res.status === rpc.Api.GetTransactionStatus.SUCCESS ? 'SUCCESS' : 'FAILED', ledger: res.ledger, ...base };
  }

  async function poll(hash: string, deadline: number): Promise<TxObservation> {
    // A transaction we just sent cannot be in a ledger before the next close: start there.
    let seq = sent.get(hash)?.latestLedger;
    let last: TxObservation | undefined;
    for (;;) {
      if (seq !== undefined) {
        const predicted = clock.nextPollAt(seq, POLL_GRACE_MS) - Date.now();
        // Before the period is known, poll every TX_POLL_INTERVAL_MS. After, that setting bounds
        // the wait only once the predicted close has passed (a missed prediction, a delayed
        // inclusion); before the predicted close a poll would find nothing.
        const wait = Number.isNaN(predicted)
          ? config.pollIntervalMs
          : predicted > 0
            ? predicted
            : Math.min(config.pollIntervalMs, 4 * POLL_GRACE_MS);
        const delay = Math.min(Math.max(wait, MIN_POLL_DELAY_MS), deadline - Date.now());
        if (last && delay <= 0) break;
        await sleep(delay);
      }
      last = await observe(hash);
      if (last.status !== 'NOT_FOUND') return last;
      if (Date.now() >= deadline) break;
      seq = last.latestLedger;
    }
    const mine = sent.get(hash);
    if (mine) {
      // Unknown outcome: the next pull asks the network for the sequence, and this process stops
      // tracking the hash (the reconciler resolves it from the database).
      sequences.forget(mine.source);
      sent.delete(hash);
    }
    return last;
  }

  async function waitForOutcome(hash: string, deadline: number): Promise<TxObservation> {
    // Callers waiting for the same transaction share one poll instead of multiplying RPC calls.
    const running = polls.get(hash);
    if (running) {
      const outcome = await Promise.race([running, sleep(deadline - Date.now()).then(() => undefined)]);
      if (!outcome) return observe(hash);
      if (outcome.status !== 'NOT_FOUND' || Date.now() >= deadline) return outcome;
    }
    const mine = poll(hash, deadline).finally(() => {
      if (polls.get(hash) === mine) polls.delete(hash);
    });
    polls.set(hash, mine);
    return mine;
  }

  return {
    parseSecret,
    serialize: (source, fn) => queues.run(source, fn),
    preparePull,
    send,
    observe,
    waitForOutcome,
  };
}
