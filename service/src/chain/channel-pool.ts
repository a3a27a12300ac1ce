// The gateway's side of channel accounts: takes a lease from the database (any replica's pool is
// the same rows), opens the channel's sealed secret, and gives the lease back. The lease rules and
// why they never let two transactions share a (source, sequence): service/docs/channels.md.
import { randomUUID } from 'node:crypto';
import { Keypair } from '@stellar/stellar-sdk';
import { channelSealContext, type ChannelsRepo, type LeasedChannel } from '../billing/pulls/channels-port.ts';
import { PullRejection } from '../billing/pulls/vault-gateway.ts';
import type { Sealed } from '../billing/signing-keys/signing-keys-port.ts';

/**
 * A lease lapses this many network seconds after its time bound. Core refuses a transaction in any
 * ledger whose close time is past its maxTime; the margin covers an RPC whose latest ledger is a
 * little behind the ledger the lessee's clock reading came from.
 */
export const LEASE_LAPSE_MARGIN_SECONDS = 10;
/** How long the number of channels is trusted before it is read again (new channels need no restart). */
const POOL_SIZE_TTL_MS = 2_000;

export interface ChannelPoolOptions {
  repo: ChannelsRepo;
  /** Opens a sealed secret (the signing-key box, SIGNING_KEY_ENCRYPTION_KEY). */
  open: (sealed: Sealed, context: string) => string;
  /** Longest a pull waits for a free channel before it is refused as chain_busy. */
  maxWaitMs: number;
}

export interface Lease extends LeasedChannel {
  keypair: Keypair;
}

export class ChannelPool {
  #o: ChannelPoolOptions;
  #size: { n: number; at: number } | undefined;
  /** Since when (epoch ms) a lease was wanted and none was free; undefined while leases are granted. */
  #exhaustedSince: number | undefined;

  constructor(o: ChannelPoolOptions) {
    this.#o = o;
  }

  /** True when at least one channel exists (read at most every 2 s): pulls then go through channels. */
  async enabled(): Promise<boolean> {
    if (this.#size && Date.now() - this.#size.at < POOL_SIZE_TTL_MS) return this.#size.n > 0;
    const { total } = await this.#o.repo.counts();
    this.#size = { n: total, at: Date.now() };
    return total > 0;
  }

  exhaustedSince(): number | undefined {
    return this.#exhaustedSince;
  }

  counts(networkNow?: number) {
    return this.#o.repo.counts(networkNow === undefined ? undefined : networkNow - LEASE_LAPSE_MARGIN_SECONDS);
  }

  /**
   * Leases a channel for a transaction whose maxTime will be at most `maxTime` (network seconds).
   * First a free channel (no RPC call); else one whose lease lapsed, judged by `latestCloseTime`:
   * the close time of a ledger that has actually closed (never a time extrapolated from our clock:
   * only a closed ledger past a time bound proves no later ledger can include the transaction).
   * Waits `pollMs` at a time while none is free, up to maxWaitMs.
   */
  async lease(maxTime: number, latestCloseTime: () => Promise<number>, pollMs: number): Promise<Lease> {
    const started = Date.now();
    for (let round = 0; ; round++) {
      const lapsedBefore = round === 0 ? 0 : (await latestCloseTime()) - LEASE_LAPSE_MARGIN_SECONDS;
      const leased = await this.#o.repo.lease({ holder: randomUUID(), leaseMaxTime: maxTime, lapsedBefore });
      if (leased) {
        this.#exhaustedSince = undefined;
        const secret = this.#o.open(leased.sealed, channelSealContext(leased.publicKey));
        const keypair = Keypair.fromSecret(secret);
        if (keypair.publicKey() !== leased.publicKey) {
          await this.#o.repo.release(leased.id, leased.holder);
          throw new PullRejection('submission_failed', `channel ${leased.publicKey} does not open to its own key`);
        }
        return { ...leased, keypair };
      }
      if (round === 0) continue; // look for a lapsed lease before waiting
      this.#exhaustedSince ??= Date.now();
      if (Date.now() - started >= this.#o.maxWaitMs) {
        throw new PullRejection('chain_busy', `No channel account was free for ${Date.now() - started} ms`);
      }
      await new Promise((r) => setTimeout(r, Math.max(20, pollMs)));
    }
  }

  release(lease: Pick<LeasedChannel, 'id' | 'holder'>, sequence?: bigint, forgetSequence?: boolean): Promise<void> {
    return this.#o.repo.release(lease.id, lease.holder, sequence, forgetSequence);
  }

  attach(lease: Pick<LeasedChannel, 'id' | 'holder'>, hash: string): Promise<void> {
    return this.#o.repo.attach(lease.id, lease.holder, hash);
  }

  /** Some channel's public key: a simulation's source that is not the merchant (nothing is sent). */
  async anyPublicKey(): Promise<string> {
    const key = await this.#o.repo.anyPublicKey();
    if (!key) throw new PullRejection('submission_failed', 'No channel account is configured');
    return key;
  }

  releaseByTx(hash: string, sequence?: bigint): Promise<boolean> {
    return this.#o.repo.releaseByTx(hash, sequence);
  }
}
