// The real VaultGateway: Soroban RPC over HTTP(S) through @stellar/stellar-sdk's rpc.Server.
// Round trips per confirmed pull: simulate, send, and usually one getTransaction timed to land
// just after the next ledger closes; the account's sequence only when this process has none cached.
// Every RPC call has a time limit (guarded-rpc.ts). A call that fails before sendTransaction is
// `chain_unavailable` and changes nothing; a sendTransaction whose answer is lost is an unknown
// outcome, never a rejection.
import {
  Address,
  authorizeEntry,
  buildAuthorizationEntryPreimage,
  hash as sha256,
  Keypair,
  rpc,
  TransactionBuilder,
  xdr,
  type Transaction,
} from '@stellar/stellar-sdk';
import {
  isDetached,
  PullRejection,
  type AuthorizationRequest,
  type DetachedAuthorization,
  type ForgottenOutcome,
  type Parties,
  type PreparePullInput,
  type SignedPull,
  type TxObservation,
  type VaultGateway,
} from '../billing/pulls/vault-gateway.ts';
import { classifySimulationFailure } from './chain-errors.ts';
import { FeeBidder } from './fee-bid.ts';
import { gatherFacts } from './failure-facts.ts';
import { inspectVault } from './inspect.ts';
import { guardedRpc, RpcCallError, type RpcCallObserver } from './guarded-rpc.ts';
import { LedgerClock } from './ledger-clock.ts';
import { LedgerWatcher } from './ledger-watcher.ts';
import { accountSequence } from './ledger-reads.ts';
import { ChannelPool, type ChannelPoolOptions, type Lease } from './channel-pool.ts';
import { asSigningKey, parseSecret } from './merchant-key.ts';
import { buildPullTransaction, PULL_TIME_BOUND_SECONDS, timeBoundAfter } from './pull-transaction.ts';
import { SequenceCache, SourceQueues, type QueueLimits } from './source-queue.ts';
import { toObservation } from './tx-outcome.ts';
import { readVault, vaultFromStateChanges, vaultLedgerKey } from './vault-state.ts';

export interface ChainConfig {
  rpcUrl: string;
  networkPassphrase: string;
  /** Upper bound between confirmation polls. */
  pollIntervalMs: number;
  /** Time limit of each RPC call. */
  rpcTimeoutMs: number;
  /** Highest inclusion fee a pull may bid, stroops. */
  maxInclusionFee: bigint;
  /** When set, this account pays every pull's fee through a fee-bump envelope. */
  feeSourceSecret?: string;
  /** Bounds of each merchant's queue in this process. */
  queue: QueueLimits;
  /** Optional: told the duration of every RPC call (the metrics' latency histogram). */
  onRpcCall?: RpcCallObserver;
  /** Channel accounts (issue 14): while the store holds any, every pull's source is a leased channel. */
  channels?: Omit<ChannelPoolOptions, 'maxWaitMs'>;
  /** Told the fee of every pull seen in a ledger, stroops (metrics). */
  onFeeCharged?: (stroops: number, viaChannel: boolean, ledger?: number) => void;
}

/**
 * Core refuses a transaction whose maxTime is less than about two expected ledger closes after the
 * last close (txTOO_LATE; stellar-core's getUpperBoundCloseTimeOffset, 10 s at 5 s ledgers). Such
 * an envelope is rebuilt, never sent.
 */
const SUBMIT_SAFETY_SECONDS = 10;
/** Rebuild rather than send when fewer network seconds than this are left of the time bound. */
const MIN_VALIDITY_AT_SEND_SECONDS = SUBMIT_SAFETY_SECONDS + 2;
const MIN_POLL_DELAY_MS = 20;
/** How long after a predicted ledger close we look, to let the RPC ingest it. */
const POLL_GRACE_MS = 40;
/**
 * An attempt the RPC has forgotten counts as landed when the vault's last pull is no older than
 * this before the attempt's build time (its time bound minus its validity): ledger time and our
 * clock may disagree a little, and in doubt "landed" is the side that never charges twice.
 */
const FORGOTTEN_CLOCK_MARGIN_SECONDS = 60;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

type SimulationSuccess = Exclude<rpc.Api.SimulateTransactionResponse, rpc.Api.SimulateTransactionErrorResponse>;

export const unavailable = (err: unknown): unknown =>
  err instanceof RpcCallError
    ? new PullRejection('chain_unavailable', `Soroban RPC unavailable: ${err.method}: ${err.message}`)
    : err;

/** The address credentials of an entry (legacy ADDRESS or CAP-71 ADDRESS_V2); undefined otherwise. */
function addressCredentials(c: xdr.SorobanCredentials): xdr.SorobanAddressCredentials | undefined {
  if (c.type === 'sorobanCredentialsAddress') return c.address;
  if (c.type === 'sorobanCredentialsAddressV2') return c.addressV2;
  return undefined;
}

/** The same entry with its signature expiration ledger set (still unsigned). */
function withExpiration(entry: xdr.SorobanAuthorizationEntry, ledger: number): xdr.SorobanAuthorizationEntry {
  const c = addressCredentials(entry.credentials);
  if (!c) return entry;
  const creds = new xdr.SorobanAddressCredentials({
    address: c.address,
    nonce: c.nonce,
    signatureExpirationLedger: ledger,
    signature: xdr.ScVal.scvVoid(),
  });
  return new xdr.SorobanAuthorizationEntry({
    credentials:
      entry.credentials.type === 'sorobanCredentialsAddress'
        ? xdr.SorobanCredentials.sorobanCredentialsAddress(creds)
        : xdr.SorobanCredentials.sorobanCredentialsAddressV2(creds),
    rootInvocation: entry.rootInvocation,
  });
}

export function createSorobanGateway(config: ChainConfig): VaultGateway {
  const server = guardedRpc(new rpc.Server(config.rpcUrl, { allowHttp: config.rpcUrl.startsWith('http://') }), {
    timeoutMs: config.rpcTimeoutMs,
    observe: config.onRpcCall,
    rpcUrl: config.rpcUrl,
  });
  const feeSource = config.feeSourceSecret ? parseSecret(config.feeSourceSecret) : null;
  const queues = new SourceQueues(
    config.queue,
    (reason) => new PullRejection('chain_busy', `Too many pulls in flight for this merchant: ${reason}`),
  );
  const sequences = new SequenceCache();
  const pool = config.channels ? new ChannelPool({ ...config.channels, maxWaitMs: config.queue.maxWaitMs }) : undefined;
  const channelsOn = async () => (pool ? pool.enabled() : false);
  const watcher = new LedgerWatcher({
    fetch: (request) =>
      server._getTransactions(
        request.cursor !== undefined
          ? { pagination: { cursor: request.cursor, limit: 200 } }
          : { startLedger: request.startLedger!, pagination: { limit: 200 } },
      ),
    untilNextLedger: (latestLedger, capMs) => {
      // As the per-transaction poll did: a probe at the midpoint while the close phase is unsure
      // (it narrows the bounds), then just after the upper bound. Looking only at the upper bound
      // saves the probe but, measured, let the confirmation trail the close by ~1.5 s at p95.
      const predicted = clock.nextPollAt(latestLedger, POLL_GRACE_MS);
      const wait = Number.isNaN(predicted) ? config.pollIntervalMs : predicted - Date.now();
      return sleep(Math.min(Math.max(wait, MIN_POLL_DELAY_MS), capMs));
    },
    retryMs: config.pollIntervalMs,
    onAnswer: (latestLedger, closeTime) => clock.observe(latestLedger, closeTime),
    latestSeen: () => clock.latestSeq(),
  });
  const clock = new LedgerClock();
  const sent = new Map<
    string,
    { source: string; sequence: bigint; latestLedger: number; channel?: { id: string; holder: string } }
  >();
  const polls = new Map<string, Promise<TxObservation>>();
  // p90 of recent Soroban inclusion fees: above what most included transactions paid.
  const bidder = new FeeBidder(
    async () => BigInt((await server.getFeeStats()).sorobanInclusionFee.p90),
    config.maxInclusionFee,
  );

  /** The network's time, from the latest close time any answer carried; asked for once if none has. */
  async function networkNow(refresh = false): Promise<number> {
    const known = clock.networkNow();
    if (known !== undefined && !refresh) return known;
    const latest = await server._getLatestLedger();
    clock.observe(latest.sequence, Number(latest.closeTime));
    return Number(latest.closeTime);
  }

  async function currentSequence(source: string): Promise<bigint> {
    const cached = sequences.get(source);
    if (cached !== undefined) return cached;
    const seq = await accountSequence(server, source);
    if (seq === undefined)
      throw new PullRejection('simulation_failed', `The merchant's account ${source} does not exist on the network`);
    return seq;
  }

  async function preparePull(input: PreparePullInput): Promise<SignedPull> {
    if (pool && (isDetached(input.key) || (await channelsOn()))) return preparePullViaChannel(input, pool);
    const key = asSigningKey(input.key);
    const merchant = key.publicKey;
    let tx: Transaction;
    let simulation: SimulationSuccess;
    const inclusionFee = await bidder.bid(merchant);
    try {
      const [sequence, now] = await Promise.all([currentSequence(merchant), networkNow()]);
      tx = buildPullTransaction({
        ...input,
        merchant,
        sequence,
        inclusionFee,
        networkNow: now,
        networkPassphrase: config.networkPassphrase,
      });
      simulation = await acceptSimulation(await server.simulateTransaction(tx), { ...input, merchant });
    } catch (err) {
      throw unavailable(err);
    }
    const prepared = rpc.assembleTransaction(tx, simulation).build();
    key.sign(prepared);
    const { envelope, hash } = withFeeSource(prepared, inclusionFee);
    return {
      hash,
      envelopeXdr: envelope.toXDR(),
      maxTime: Number(prepared.timeBounds?.maxTime ?? 0),
      source: merchant,
      sequence: prepared.sequence,
      minLedger: simulation.latestLedger,
      inclusionFee: inclusionFee.toString(),
    };
  }

  /**
   * A simulation's verdict on a pull: its failure, named from the facts around it, or the vault
   * entry it would update, whose terms the caller accepts or refuses (acceptVault throws).
   * Answers the simulation, known to have succeeded. Callers turn RPC errors into
   * chain_unavailable (`unavailable`), as for the simulation itself.
   */
  async function acceptSimulation(
    simulation: rpc.Api.SimulateTransactionResponse,
    input: Pick<PreparePullInput, 'contractId' | 'user' | 'collectedBefore' | 'acceptVault'> & { merchant: string },
  ): Promise<SimulationSuccess> {
    const { contractId, user, merchant } = input;
    if (rpc.Api.isSimulationError(simulation)) {
      const facts = await gatherFacts(server, simulation, { ...input, passphrase: config.networkPassphrase });
      throw classifySimulationFailure(simulation, facts, input.acceptVault);
    }
    // A successful simulation lists the vault entry it would update: its terms, no extra read.
    const vault =
      vaultFromStateChanges(simulation.stateChanges, vaultLedgerKey(contractId, user, merchant)) ??
      (await readVault(server, contractId, user, merchant));
    if (!vault)
      throw new PullRejection('simulation_failed', 'The simulation succeeded but the vault entry could not be read');
    input.acceptVault(vault);
    return simulation;
  }

  /**
   * With a fee source, the signed transaction travels inside a fee-bump envelope that the fee
   * source signs and pays; the hash the RPC knows it by is the outer one.
   */
  function withFeeSource(prepared: Transaction, inclusionFee: bigint) {
    const envelope = feeSource
      ? feeSource.signed(
          TransactionBuilder.buildFeeBumpTransaction(
            feeSource.publicKey,
            inclusionFee.toString(),
            prepared,
            config.networkPassphrase,
          ),
        )
      : prepared;
    return { envelope, hash: Buffer.from(envelope.hash()).toString('hex') };
  }

  /** Ledgers until the network's time has passed `seconds` more, plus two: "just past the time bound". */
  function ledgersFor(seconds: number): number {
    return Math.min(100_000, Math.ceil((seconds * 1000) / Math.max(100, clock.periodMs())) + 2);
  }

  /** The merchant's entry among a simulation's auth entries (address credentials for it). */
  function merchantEntry(entries: xdr.SorobanAuthorizationEntry[], merchant: string) {
    return entries.find((e) => {
      const creds = addressCredentials(e.credentials);
      return creds !== undefined && Address.fromScAddress(creds.address).toString() === merchant;
    });
  }

  /** The detached authorisation as a signed entry; throws when the signature is not the merchant's. */
  async function applyDetached(key: DetachedAuthorization): Promise<xdr.SorobanAuthorizationEntry> {
    const entry = xdr.SorobanAuthorizationEntry.fromXdr(key.entryXdr, 'base64');
    // authorizeEntry verifies the signature against the payload before it writes it in.
    return authorizeEntry(
      entry,
      async () => ({ signature: key.signature, publicKey: key.publicKey }),
      key.signatureExpirationLedger,
      config.networkPassphrase,
    );
  }

  /**
   * Issue 14: a leased channel is the source, the merchant signs only its auth entry (with an
   * expiration just past the time bound), the channel signs the envelope, a fund account may
   * fee-bump it. Simulation runs with the channel as source so the merchant's require_auth is
   * recorded as ADDRESS_V2 credentials (SDK 17 sends useUpgradedAuth; stellar-rpc
   * simulate_transaction / rs-soroban-env auth.rs new_recording); the signed entry replaces it and
   * assembleTransaction keeps an operation's own auth (js-stellar-sdk src/rpc/transaction.ts).
   */
  async function preparePullViaChannel(input: PreparePullInput, channels: ChannelPool): Promise<SignedPull> {
    const merchant = input.key.publicKey;
    const detached = isDetached(input.key) ? input.key : undefined;
    const signer = detached ? undefined : asSigningKey(input.key);
    let now: number;
    try {
      now = await networkNow();
    } catch (err) {
      throw unavailable(err);
    }
    const maxTime = timeBoundAfter(now, input.laterThan);
    const lease: Lease = await channels
      .lease(
        maxTime,
        async () => {
          const latest = await server._getLatestLedger();
          clock.observe(latest.sequence, Number(latest.closeTime));
          return Number(latest.closeTime);
        },
        clock.periodMs() / 4,
      )
      .catch((err: unknown) => {
        throw unavailable(err);
      });
    try {
      const inclusionFee = await bidder.bid(merchant);
      let tx: Transaction;
      let simulation: SimulationSuccess;
      const signedDetached = detached ? await applyDetached(detached) : undefined;
      try {
        // The sequence this channel's last included transaction consumed, as recorded when it was
        // seen; read from the network only when unknown (new channel, or refused as txBAD_SEQ).
        // Exclusivity comes from the lease, not from this number: a stale one costs a txBAD_SEQ.
        const onNetwork = lease.lastSequence ?? (await accountSequence(server, lease.publicKey));
        if (onNetwork === undefined)
          throw new PullRejection(
            'submission_failed',
            `The channel account ${lease.publicKey} does not exist on the network`,
          );
        const sequence = onNetwork;
        const base = {
          ...input,
          merchant,
          source: lease.publicKey,
          sequence,
          inclusionFee,
          networkNow: now,
          maxTime,
          networkPassphrase: config.networkPassphrase,
        };
        tx = buildPullTransaction({ ...base, auth: signedDetached ? [signedDetached] : undefined });
        simulation = await acceptSimulation(await server.simulateTransaction(tx), { ...input, merchant });
        if (signer) {
          const recorded = simulation.result?.auth ?? [];
          const entry = merchantEntry(recorded, merchant);
          if (!entry)
            throw new PullRejection('simulation_failed', 'The simulation recorded no authorisation of the merchant');
          const validUntil = simulation.latestLedger + ledgersFor(maxTime - now);
          const signed = await signer.authorize(entry, validUntil, config.networkPassphrase);
          tx = buildPullTransaction({ ...base, auth: recorded.map((e) => (e === entry ? signed : e)) });
        }
      } catch (err) {
        throw unavailable(err);
      }
      const prepared = rpc.assembleTransaction(tx, simulation).build();
      prepared.sign(lease.keypair);
      const { envelope, hash } = withFeeSource(prepared, inclusionFee);
      await channels.attach(lease, hash);
      return {
        hash,
        envelopeXdr: envelope.toXDR(),
        maxTime: Number(prepared.timeBounds?.maxTime ?? 0),
        source: lease.publicKey,
        sequence: prepared.sequence,
        minLedger: simulation.latestLedger,
        inclusionFee: inclusionFee.toString(),
        channel: { id: lease.id, holder: lease.holder },
        innerHash: feeSource ? Buffer.from(prepared.hash()).toString('hex') : undefined,
      };
    } catch (err) {
      await channels.release(lease).catch(() => undefined);
      throw err;
    }
  }

  async function prepareAuthorization(
    input: Omit<PreparePullInput, 'key'> & { merchant: string; validForSeconds: number },
  ): Promise<AuthorizationRequest> {
    if (!pool || !(await channelsOn()))
      throw new PullRejection('submission_failed', 'Client-side signing needs channel accounts: none is configured');
    let now: number;
    let simulation: SimulationSuccess;
    try {
      now = await networkNow();
      // Simulation needs a source that is not the merchant (so its auth is recorded as address
      // credentials) but no lease: nothing is sent. Sequence 0, as OpenZeppelin's channels plugin does.
      const any = await pool.anyPublicKey();
      const tx = buildPullTransaction({
        ...input,
        source: any,
        sequence: 0n,
        inclusionFee: 100n,
        networkNow: now,
        networkPassphrase: config.networkPassphrase,
      });
      simulation = await acceptSimulation(await server.simulateTransaction(tx), input);
    } catch (err) {
      throw unavailable(err);
    }
    const entry = merchantEntry(simulation.result?.auth ?? [], input.merchant);
    if (!entry)
      throw new PullRejection('simulation_failed', 'The simulation recorded no authorisation of the merchant');
    // Valid through the preparation's life plus one transaction's time bound: a submission at the
    // last moment still lands before the signature expires.
    const signatureExpirationLedger =
      simulation.latestLedger + ledgersFor(input.validForSeconds + PULL_TIME_BOUND_SECONDS);
    const withExpiry = withExpiration(entry, signatureExpirationLedger);
    const preimage = buildAuthorizationEntryPreimage(withExpiry, signatureExpirationLedger, config.networkPassphrase);
    return {
      entryXdr: withExpiry.toXdr('base64'),
      preimageXdr: preimage.toXdr('base64'),
      hash: Buffer.from(sha256(preimage.toXdr())).toString('hex'),
      signatureExpirationLedger,
    };
  }

  async function send(pull: SignedPull): Promise<void> {
    const left = pull.maxTime - (clock.networkNow() ?? 0);
    if (left < MIN_VALIDITY_AT_SEND_SECONDS) {
      throw new PullRejection(
        'submission_failed',
        `the time bound is ${left} s away: core would refuse it as txTOO_LATE`,
        { rebuild: true },
      );
    }
    try {
      await sendOnce(pull);
    } catch (err) {
      // Refused before it was queued: the channel's sequence was not used, the lease goes back now.
      // An unknown outcome keeps the lease until the time bound has passed (channel-pool.ts).
      if (pool && pull.channel && err instanceof PullRejection && err.definitelyNotSent)
        await pool.release(pull.channel).catch(() => undefined);
      throw err;
    }
  }

  async function sendOnce(pull: SignedPull): Promise<void> {
    const tx = TransactionBuilder.fromXDR(pull.envelopeXdr, config.networkPassphrase);
    let res: rpc.Api.SendTransactionResponse;
    try {
      res = await server.sendTransaction(tx);
    } catch (err) {
      // An answer (a JSON-RPC error) means the RPC refused it. Anything else — a timeout, a
      // dropped connection, a proxy's 502 — may have reached the network: the outcome is unknown.
      const answered = err instanceof RpcCallError && err.answered;
      const text = err instanceof Error ? err.message : String(err);
      throw new PullRejection('submission_failed', `sendTransaction failed: ${text}`, { definitelyNotSent: answered });
    }
    clock.observe(res.latestLedger, Number(res.latestLedgerCloseTime));
    if (res.status === 'PENDING' || res.status === 'DUPLICATE') {
      bidder.accepted(pull.source);
      sent.set(pull.hash, {
        source: pull.source,
        sequence: BigInt(pull.sequence),
        latestLedger: res.latestLedger,
        channel: pull.channel,
      });
      return;
    }
    const bid = BigInt(pull.inclusionFee);
    if (res.status === 'TRY_AGAIN_LATER') {
      // Not queued: another transaction of this source is queued (another replica), the queue is
      // full and our bid too low, or the hash is banned for a while. Re-sending the same envelope
      // cannot fix the last two: after the next ledger, a new one is built with a higher bid.
      bidder.refused(pull.source, bid);
      await sleepUntilNextLedger(res.latestLedger);
      throw new PullRejection('submission_failed', 'sendTransaction answered TRY_AGAIN_LATER', { rebuild: true });
    }
    const code = res.errorResult?.result.type ?? 'unknown';
    sequences.forget(pull.source);
    if (pool && pull.channel && (code === 'txBadSeq' || code === 'txFeeBumpInnerFailed'))
      await pool.release(pull.channel, undefined, true).catch(() => undefined);
    if (code === 'txInsufficientFee') {
      // The result's feeCharged is the fee the network wanted; less the resource fee, the inclusion fee.
      const env = ('innerTransaction' in tx ? tx.innerTransaction : tx).toEnvelope();
      const ext = env.type === 'envelopeTypeTx' ? env.v1.tx.ext : undefined;
      const resourceFee = ext?.type === 'sorobanData' ? BigInt(ext.sorobanData.resourceFee) : 0n;
      bidder.refused(pull.source, bid, BigInt(res.errorResult?.feeCharged ?? 0) - resourceFee);
    }
    const rebuild = code === 'txBadSeq' || code === 'txInsufficientFee' || code === 'txTooLate';
    throw new PullRejection('submission_failed', `sendTransaction answered ERROR: ${code}`, { rebuild });
  }

  async function sleepUntilNextLedger(latestLedger: number): Promise<void> {
    const predicted = clock.nextPollAt(latestLedger, POLL_GRACE_MS);
    await sleep((Number.isNaN(predicted) ? Date.now() + config.pollIntervalMs : predicted) - Date.now());
  }

  async function observe(hash: string, parties?: Parties): Promise<TxObservation> {
    let raw: rpc.Api.RawGetTransactionResponse;
    try {
      raw = await server._getTransaction(hash);
    } catch (err) {
      throw unavailable(err);
    }
    const res = toObservation(raw, parties, config.networkPassphrase);
    clock.observe(res.latestLedger, res.latestLedgerCloseTime);
    if (res.status === 'NOT_FOUND') return res;
    return settled(hash, res, raw.envelopeXdr);
  }

  /** A transaction seen in a ledger: this process stops tracking it, its channel's lease ends. */
  async function settled(hash: string, res: TxObservation, envelopeXdr?: string): Promise<TxObservation> {
    const mine = sent.get(hash);
    if (mine) {
      if (!mine.channel) sequences.included(mine.source, mine.sequence);
      sent.delete(hash);
      if (res.feeCharged !== undefined)
        config.onFeeCharged?.(Number(res.feeCharged), Boolean(mine.channel), res.ledger);
    }
    // In a ledger: the channel's sequence is used, its lease ends (whichever replica sent it).
    if (pool && (!mine || mine.channel))
      await pool.releaseByTx(hash, mine?.sequence ?? innerSequence(envelopeXdr)).catch(() => undefined);
    return res;
  }

  async function poll(hash: string, deadline: number, parties?: Parties): Promise<TxObservation> {
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
      try {
        last = await observe(hash, parties);
      } catch (err) {
        // The RPC did not answer this time: keep trying until the deadline, then report NOT_FOUND
        // as last seen (or, with nothing seen at all, the error: the caller answers 202).
        if (Date.now() >= deadline) {
          if (last) break;
          throw unavailable(err);
        }
        seq = undefined;
        await sleep(Math.min(config.pollIntervalMs, deadline - Date.now()));
        continue;
      }
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

  /** The sequence number an envelope consumes (its inner transaction's, for a fee bump). */
  function innerSequence(envelopeXdr?: string): bigint | undefined {
    if (!envelopeXdr) return undefined;
    try {
      const tx = TransactionBuilder.fromXDR(envelopeXdr, config.networkPassphrase);
      return BigInt(('innerTransaction' in tx ? tx.innerTransaction : tx).sequence);
    } catch {
      return undefined;
    }
  }

  /**
   * A transaction this process sent is confirmed from the ledgers' lists (getTransactions), shared by
   * every pull waiting at the same time; the RPC's NOT_FOUND at the deadline is reported as the last
   * ledger read showed it.
   */
  async function waitInBulk(
    hash: string,
    from: number,
    deadline: number,
    parties?: Parties,
  ): Promise<TxObservation | undefined> {
    const seen = await watcher.wait(hash, from, deadline);
    if (!seen) return undefined;
    const raw = {
      ...seen.item,
      latestLedger: seen.latestLedger,
      latestLedgerCloseTime: String(seen.latestLedgerCloseTime),
      oldestLedger: seen.oldestLedger,
    } as unknown as rpc.Api.RawGetTransactionResponse;
    const res = toObservation(raw, parties, config.networkPassphrase);
    return settled(hash, res, seen.item.envelopeXdr);
  }

  async function waitForOutcome(hash: string, deadline: number, parties?: Parties): Promise<TxObservation> {
    const ours = sent.get(hash);
    if (ours && !watcher.unsupported) {
      const found = await waitInBulk(hash, ours.latestLedger + 1, deadline, parties);
      if (found) return found;
      if (watcher.unsupported) return poll(hash, deadline, parties);
      // Not in any ledger read before the deadline: one direct look gives the RPC's own answer
      // (and its retention window); an unknown outcome stays for the reconciler.
      const last = await observe(hash, parties);
      if (last.status === 'NOT_FOUND' && sent.has(hash)) {
        if (!ours.channel) sequences.forget(ours.source);
        sent.delete(hash);
      }
      return last;
    }
    // Callers waiting for the same transaction share one poll instead of multiplying RPC calls.
    const running = polls.get(hash);
    if (running) {
      const outcome = await Promise.race([running, sleep(deadline - Date.now()).then(() => undefined)]);
      if (!outcome) return observe(hash, parties);
      if (outcome.status !== 'NOT_FOUND' || Date.now() >= deadline) return outcome;
    }
    const mine = poll(hash, deadline, parties).finally(() => {
      if (polls.get(hash) === mine) polls.delete(hash);
    });
    polls.set(hash, mine);
    return mine;
  }

  async function establishForgotten(input: {
    envelopeXdr: string;
    user: string;
    merchant: string;
    contractId: string;
  }): Promise<ForgottenOutcome> {
    let tx = TransactionBuilder.fromXDR(input.envelopeXdr, config.networkPassphrase);
    if ('innerTransaction' in tx) tx = tx.innerTransaction;
    const inner = tx as Transaction;
    const accountSeq = await accountSequence(server, inner.source);
    if (accountSeq === undefined) return 'unknown';
    // The source account never reached this sequence: the transaction was never included, and
    // past its time bound it never will be.
    if (accountSeq < BigInt(inner.sequence)) return 'not_landed';
    // The sequence was used, by this transaction or another: the vault says whether it pulled.
    const vault = await readVault(server, input.contractId, input.user, input.merchant);
    if (!vault) return 'unknown';
    const builtAt = Number(inner.timeBounds?.maxTime ?? 0) - PULL_TIME_BOUND_SECONDS;
    return vault.lastPullTimestamp >= BigInt(builtAt - FORGOTTEN_CLOCK_MARGIN_SECONDS) ? 'landed' : 'not_landed';
  }

  return {
    parseSecret,
    // With channel accounts nothing needs queueing: each pull holds a channel of its own.
    serialize: async (source, fn) => ((await channelsOn()) ? fn() : queues.run(source, fn)),
    preparePull,
    abandon: async (pull) => {
      if (pool && pull.channel) await pool.release(pull.channel).catch(() => undefined);
    },
    prepareAuthorization,
    verifySignature: (publicKey, hash, signature) => {
      try {
        return Keypair.fromPublicKey(publicKey).verify(Buffer.from(hash, 'hex'), Buffer.from(signature));
      } catch {
        return false;
      }
    },
    channelStatus: async () => {
      if (!pool) return undefined;
      const counts = await pool.counts(clock.networkNow());
      return { ...counts, exhaustedSince: pool.exhaustedSince(), ledgerMs: clock.periodMs() };
    },
    send,
    observe,
    waitForOutcome,
    establishForgotten,
    inspect: (input) =>
      inspectVault(server, { ...input, passphrase: config.networkPassphrase }).then(
        (out) => {
          clock.observe(out.latestLedger, out.ledgerTime);
          return out;
        },
        (err: unknown) => {
          throw unavailable(err);
        },
      ),
    networkNow: (refresh) =>
      networkNow(refresh).catch((err: unknown) => {
        throw unavailable(err);
      }),
  };
}
