// The control surface beside the RPC: funding, minting, time, ledger closing,
// faults, snapshots. The HTTP routes and the programmatic API both call these.
import { Address, StrKey, xdr } from '@stellar/stellar-sdk';
import { accountEntry, balanceOf, FRIENDBOT_XLM, withAccount } from '../ledger/accounts.ts';
import type { LedgerClock } from '../network/clock.ts';
import type { FaultSpec } from '../ledger/faults.ts';
import type { Submission } from '../ledger/history.ts';
import { accountKey, keyId } from '../ledger/keys.ts';
import type { Network } from '../network/network.ts';
import { addr, i128 } from '../host/scval.ts';
import { invoke } from '../tx/invoke.ts';
import { addTraffic, type TrafficRequest, type TrafficTx } from './traffic.ts';
import { congest, type CongestionReply, type CongestionRequest } from './congestion.ts';
import type { SorobanNetworkConfig } from '../ledger/network-config.ts';
import {
  changeTrustline,
  TrustlineError,
  viewTrustline,
  type TrustlineAnswer,
  type TrustlineRequest,
  type TrustlineView,
} from './trustlines.ts';
import { displayScVal } from '../host/display.ts';
import type { HostEvent } from '../host/events.ts';

export class ControlError extends Error {}

export const MAX_ADVANCE_LEDGERS = 100_000;

export type DevnetState = { sequence: number; closeTime: number; paused: boolean; ledgerMs: number; queued: number };

export class DevnetControl {
  private readonly net: Network;
  private readonly clock: LedgerClock;

  constructor(net: Network, clock: LedgerClock) {
    this.net = net;
    this.clock = clock;
  }

  /**
   * Friendbot-style: creates the account with 10,000 XLM, or tops it up by that much. With
   * `trustline` (default true) the account also gets a USDC trustline if it has none — unlimited
   * (or `limit`) and authorized, as a wallet's ChangeTrust would make it; `limit` given for an
   * existing trustline changes its limit. `trustline: false` leaves trustlines alone.
   */
  fund(
    address: string,
    opts: { trustline?: boolean; limit?: bigint } = {},
  ): { address: string; balance: string; trustline: TrustlineView | null } {
    if (!StrKey.isValidEd25519PublicKey(address)) throw new ControlError('address must be a G… account id');
    if (address === this.net.genesis.asset.issuer && opts.trustline === true)
      throw new ControlError('the issuer holds no trustline for its own asset');
    const id = keyId(accountKey(address));
    const seq = this.net.latest.sequence;
    const existing = this.net.state.get(id);
    const data = existing
      ? withAccount(existing.data, { balance: balanceOf(existing.data) + FRIENDBOT_XLM })
      : accountEntry(address, FRIENDBOT_XLM, BigInt(seq) << 32n);
    this.net.state.set(id, { data, lastModified: seq });
    let trustline: TrustlineView | null = null;
    if (address !== this.net.genesis.asset.issuer) {
      const wanted = opts.trustline ?? true;
      const current = this.trustlineOf(address);
      trustline =
        wanted && (!current.trustline || opts.limit !== undefined)
          ? this.trustline({ account: address, ...(opts.limit !== undefined && { limit: opts.limit }) }).trustline
          : current.trustline;
    }
    return { address, balance: balanceOf(this.net.state.get(id)!.data).toString(), trustline };
  }

  /**
   * Creates, changes or removes `account`'s USDC trustline (ChangeTrust's rules: a limit not below
   * the balance, removal only when empty; `authorized` as the issuer's set_authorized would set it).
   */
  trustline(req: TrustlineRequest): TrustlineAnswer {
    try {
      return changeTrustline(this.net, req);
    } catch (e) {
      if (e instanceof TrustlineError) throw new ControlError(e.message);
      throw e;
    }
  }

  /** The account's USDC trustline as it is now (null: none). */
  trustlineOf(account: string): TrustlineAnswer {
    return viewTrustline(this.net, account);
  }

  /** Mints raw token units to a G… or C… address, as the devnet-held token admin. */
  mint(to: string, amount: string): { to: string; amount: string } {
    if (!StrKey.isValidEd25519PublicKey(to) && !StrKey.isValidContract(to))
      throw new ControlError('to must be a G… or C… address');
    if (!/^\d+$/.test(amount)) throw new ControlError('amount must be a non-negative integer string of raw units');
    this.mintUnits(to, BigInt(amount));
    return { to, amount };
  }

  /**
   * Adds other accounts' transactions to the coming ledgers: `count` token transfers between
   * traffic accounts, cycling through the credential arms (source account, ADDRESS, ADDRESS_V2,
   * ADDRESS_WITH_DELEGATES), spread over `ledgers` ledgers (default count / 4, rounded up).
   * The WITH_DELEGATES ones come from a custom account the devnet does not run: included, FAILED.
   */
  traffic(req: TrafficRequest): { transactions: TrafficTx[] } {
    return { transactions: addTraffic(this.net, req, (to, amount) => this.mintUnits(to, amount)) };
  }

  private mintUnits(to: string, amount: bigint): void {
    const { tokenAdmin, token } = this.net.genesis;
    const out = invoke({
      state: this.net.state,
      contracts: this.net.contracts,
      ledgerSeq: this.net.latest.sequence,
      timestamp: BigInt(this.net.latest.closeTime),
      networkId: this.net.networkId,
      source: tokenAdmin.publicKey(),
      hostFunction: mintCall(token, to, amount),
      authEntries: [],
      authMode: 'record',
      access: { kind: 'record' },
    });
    if (out.error) throw new ControlError(`mint failed: ${errorSummary(out.error.message, out.host.events)}`);
    out.storage.commit();
  }

  advanceTime(seconds: number): DevnetState {
    if (!Number.isInteger(seconds) || seconds < 0) throw new ControlError('seconds must be a non-negative integer');
    this.net.timeOffset += seconds;
    return this.state();
  }

  closeLedger(): { sequence: number; closeTime: number } {
    const l = this.net.closeLedger();
    return { sequence: l.sequence, closeTime: l.closeTime };
  }

  /**
   * Closes `count` ledgers now, each the network's target close time (5 s) after the one before,
   * so ledger time moves as it would on the network: TTLs and time bounds pass without waiting.
   */
  advanceLedgers(count: number): { sequence: number; closeTime: number } {
    if (!Number.isInteger(count) || count < 1 || count > MAX_ADVANCE_LEDGERS) {
      throw new ControlError(`count must be an integer from 1 to ${MAX_ADVANCE_LEDGERS}`);
    }
    const step = Math.max(1, Math.round(this.net.config.ledgerTargetCloseTimeMilliseconds / 1000));
    for (let i = 0; i < count; i++) this.net.closeLedger(this.net.latest.closeTime + step);
    return { sequence: this.net.latest.sequence, closeTime: this.net.latest.closeTime };
  }

  /** Keeps the Soroban queue full of other accounts' higher bids for the next `ledgers` ledgers. */
  congestion(req: CongestionRequest): CongestionReply {
    return congest(this.net, req);
  }

  /** The network configuration in force (limits, fees, state archival, with test overrides). */
  networkConfig(): SorobanNetworkConfig {
    return { ...this.net.config };
  }

  pause(): DevnetState {
    this.clock.pause();
    return this.state();
  }

  resume(): DevnetState {
    this.clock.resume();
    return this.state();
  }

  fault(spec: FaultSpec): { armed: number } {
    this.net.faults.add(spec);
    return { armed: this.net.faults.list().length };
  }

  clearFaults(): { armed: number } {
    this.net.faults.clear();
    return { armed: 0 };
  }

  reset(): DevnetState {
    this.net.reset();
    return this.state();
  }

  snapshot(): { id: string } {
    return { id: this.net.snapshot() };
  }

  restore(id: string): DevnetState {
    if (!this.net.restore(id)) throw new ControlError(`unknown snapshot ${id}`);
    return this.state();
  }

  state(): DevnetState {
    return {
      sequence: this.net.latest.sequence,
      closeTime: this.net.latest.closeTime,
      paused: this.clock.paused,
      ledgerMs: this.net.ledgerMs,
      queued: this.net.queue.length,
    };
  }

  transactions(): Submission[] {
    return this.net.submissions.map((s) => ({ ...s }));
  }

  rpcCalls(): Record<string, number> {
    return Object.fromEntries(this.net.rpcCalls);
  }
}

/** The error and the first `error` diagnostic's data, e.g. `Error(Contract, #13) ["trustline entry is missing for account", G…]`. */
function errorSummary(message: string, events: HostEvent[]): string {
  const diag = events.find(
    (e) => e.kind === 'diagnostic' && e.topics[0]?.type === 'scvSymbol' && e.topics[0].sym.toString() === 'error',
  );
  return diag ? `${message} ${displayScVal(diag.data)}` : message;
}

function mintCall(token: string, to: string, amount: bigint): xdr.HostFunction {
  return xdr.HostFunction.hostFunctionTypeInvokeContract(
    new xdr.InvokeContractArgs({
      contractAddress: new Address(token).toScAddress(),
      functionName: 'mint',
      args: [addr(to), i128(amount)],
    }),
  );
}
