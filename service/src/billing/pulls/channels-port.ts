// Channel accounts (issue 14): service-owned accounts that are the source of pull transactions, so
// the merchant only signs its authorisation. Storage keeps them sealed (storage/repos/channels-repo.ts)
// and hands out exclusive leases; service/docs/channels.md argues why no two transactions ever share
// a (source, sequence).
import type { Sealed } from '../signing-keys/signing-keys-port.ts';

export interface LeasedChannel {
  id: string;
  publicKey: string;
  sealed: Sealed;
  /** The highest sequence number this channel was seen to consume, if known. */
  lastSequence: bigint | null;
  /** The holder token: only its holder releases a lease. */
  holder: string;
}

export interface ChannelCounts {
  total: number;
  /** Leased and not yet lapsed in the network's time `networkNow` (when given). */
  leased: number;
}

export interface ChannelsRepo {
  /** Adds channels (already funded on the network), with their sequence numbers when read. */
  insert(channels: { publicKey: string; sealed: Sealed; sequence?: bigint }[]): Promise<number>;
  /**
   * Takes one free channel: free, or leased with a lease_max_time older than `lapsedBefore` (network
   * unix seconds). One statement; concurrent callers (any replica) never get the same row.
   */
  lease(input: { holder: string; leaseMaxTime: number; lapsedBefore: number }): Promise<LeasedChannel | undefined>;
  /** Records the hash sendTransaction will know the leased transaction by. */
  attach(id: string, holder: string, txHash: string): Promise<void>;
  /**
   * Ends a lease its holder still has; `sequence` when the transaction consumed it; `forgetSequence`
   * when the network refused the sequence number used (txBAD_SEQ): the next lease reads it anew.
   */
  release(id: string, holder: string, sequence?: bigint, forgetSequence?: boolean): Promise<void>;
  /** Ends the lease under which `txHash` was sent (it was seen in a ledger), whoever holds it. */
  releaseByTx(txHash: string, sequence?: bigint): Promise<boolean>;
  anyPublicKey(): Promise<string | undefined>;
  counts(lapsedBefore?: number): Promise<ChannelCounts>;
}

/** AES-GCM context of a channel's secret: the ciphertext opens only for that public key. */
export const channelSealContext = (publicKey: string) => `channel:${publicKey}`;

/** How new channel accounts get their first XLM (`billing channels create`). */
export type ChannelFunding =
  | { kind: 'friendbot'; url: string }
  | { kind: 'devnet'; controlUrl: string }
  | {
      kind: 'create-account';
      rpcUrl: string;
      passphrase: string;
      funderSecret: string;
      startingBalance: string;
    };

/** The network side of adding channels: chain/channel-accounts.ts. */
export interface ChannelAccounts {
  newKeys(count: number): { publicKey: string; secret: string }[];
  fund(channels: { publicKey: string; secret: string }[], funding: ChannelFunding): Promise<void>;
  /** Sequence numbers of existing accounts (those it could read). */
  readSequences(accounts: string[]): Promise<Map<string, bigint>>;
}
