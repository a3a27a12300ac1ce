// The inclusion fee a pull bids. Soroban's fee is the resource fee (from simulation, never capped
// here) plus an inclusion fee that decides priority when ledgers are full (surge pricing). The bid
// follows the network: a percentile of recent Soroban inclusion fees from getFeeStats, read at most
// once per FEE_STATS_TTL_MS for all merchants; after a refusal (TRY_AGAIN_LATER, txINSUFFICIENT_FEE)
// the next bid of that source doubles. Above MAX_INCLUSION_FEE the pull is refused as fee_too_high.
import { PullRejection } from '../billing/pulls/vault-gateway.ts';

/** The network's minimum inclusion fee per operation (stroops). */
export const BASE_INCLUSION_FEE = 100n;

/**
 * stellar-rpc computes Soroban fee statistics over its last 50 ledgers by default
 * (soroban-fee-stats-retention-window, cmd/stellar-rpc/internal/config/options.go): a read every
 * 30 s (6 ledgers of 5 s) sees most of what a read every ledger would, at a sixth of the calls
 * (at one pull per ledger that call was a fifth of the pull's RPC calls). A sudden surge is met
 * by the refusal path (the bid doubles), not by reading sooner.
 */
export const FEE_STATS_TTL_MS = 30_000;

/** The chosen percentile of recent Soroban inclusion fees, stroops. */
export type FeeStatsReader = () => Promise<bigint>;

export class FeeBidder {
  #read: FeeStatsReader;
  #max: bigint;
  #ttlMs: number;
  #stats: { fee: bigint; at: number } | undefined;
  #floor = new Map<string, bigint>();

  constructor(read: FeeStatsReader, maxInclusionFee: bigint, ttlMs = FEE_STATS_TTL_MS) {
    this.#read = read;
    this.#max = maxInclusionFee;
    this.#ttlMs = ttlMs;
  }

  #reading: Promise<bigint> | undefined;

  async #networkFee(): Promise<bigint> {
    if (this.#stats && Date.now() - this.#stats.at < this.#ttlMs) return this.#stats.fee;
    // Pulls that need the figure at the same moment share one read (100 pulls of one ledger: one call).
    this.#reading ??= this.#readNow().finally(() => {
      this.#reading = undefined;
    });
    return this.#reading;
  }

  async #readNow(): Promise<bigint> {
    try {
      this.#stats = { fee: await this.#read(), at: Date.now() };
    } catch {
      // Fee statistics are advice: without them, bid what we last knew (or the minimum), and a
      // refusal raises the bid.
      return this.#stats?.fee ?? BASE_INCLUSION_FEE;
    }
    return this.#stats.fee;
  }

  /** The bid for the next transaction of `source`; throws PullRejection('fee_too_high'). */
  async bid(source: string): Promise<bigint> {
    const network = await this.#networkFee();
    const floor = this.#floor.get(source) ?? 0n;
    if (network > this.#max) {
      throw new PullRejection(
        'fee_too_high',
        `The network wants an inclusion fee of ${network} stroops, above MAX_INCLUSION_FEE (${this.#max})`,
      );
    }
    if (floor > this.#max) {
      throw new PullRejection(
        'fee_too_high',
        `The network refused an inclusion fee of MAX_INCLUSION_FEE (${this.#max} stroops)`,
      );
    }
    return [BASE_INCLUSION_FEE, network, floor].reduce((a, b) => (a > b ? a : b));
  }

  /**
   * The network refused `bid` before accepting the envelope: bid more next time, up to the cap
   * (a refusal at the cap itself means the network wants more than we may pay).
   */
  refused(source: string, bid: bigint, needed?: bigint): void {
    // txINSUFFICIENT_FEE says what the network wants (its feeCharged): bid that at once.
    const wanted = needed !== undefined && needed > bid * 2n ? needed : bid * 2n;
    this.#floor.set(source, bid >= this.#max ? this.#max + 1n : wanted > this.#max ? this.#max : wanted);
  }

  /** An envelope of `source` was accepted: back to the network's level. */
  accepted(source: string): void {
    this.#floor.delete(source);
  }
}
