// The running invocation as require_auth sees it: the call frames, the instruction meter, storage
// access inside the footprint, and failing with a host error. Host (host.ts) provides it; auth.ts
// and auth-credentials.ts are written against this, so that the host, which holds the auth
// manager, and the auth code that reads the host do not import each other.
import type { xdr } from '@stellar/stellar-sdk';
import type { ErrorCode, ErrorType } from './host-error.ts';
import type { StoredEntry } from '../ledger/ledger-state.ts';

export type Frame = { contract: string; fn: string; args: xdr.ScVal[]; eventStart: number };

// A crude, deterministic instruction meter: enough to size resources and to let a
// too-small declared budget fail, not a model of the real cost tables.
export const COST = { call: 900_000, read: 60_000, write: 120_000, event: 30_000, verify: 380_000 };

export interface Invocation {
  readonly frames: Frame[];
  instructions: number;
  readonly ctx: { readonly ledgerSeq: number; readonly maxEntryTtl: number };
  /** Records the `error` diagnostic in the current contract's name and throws. */
  fail(type: ErrorType, code: ErrorCode | number, message: string, args: xdr.ScVal[]): never;
  /** Reads a ledger entry, turning a footprint miss into the host's Storage error. */
  read(key: xdr.LedgerKey, what: string, subject: xdr.ScVal): StoredEntry | undefined;
  write(
    key: xdr.LedgerKey,
    data: xdr.LedgerEntryData | null,
    liveUntil: number | undefined,
    what: string,
    subject: xdr.ScVal,
  ): void;
}
