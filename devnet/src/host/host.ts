// One host invocation: call frames, diagnostics, storage access and auth, producing
// either a return value or a HostError plus the event log the real host would show.
import { xdr } from '@stellar/stellar-sdk';
import { contractIdBytes, scAddress } from '../ledger/addresses.ts';
import type { AuthManager } from './auth.ts';
import type { Contract, DeployedContract, Durability, Env } from './contract.ts';
import { diagnosticData, type HostEvent } from './events.ts';
import { HostError, type ErrorCode, type ErrorType } from './host-error.ts';
import { COST, type Frame, type Invocation } from './invocation.ts';
import { str, sym, u32, vec } from './scval.ts';
import { FootprintError, type StorageView } from './storage-view.ts';
import { codeKey, contractDataKey, instanceKey } from '../ledger/keys.ts';
import type { StoredEntry } from '../ledger/ledger-state.ts';

export type HostContext = {
  storage: StorageView;
  auth: AuthManager;
  contracts: Map<string, DeployedContract>;
  ledgerSeq: number;
  timestamp: bigint;
  maxEntryTtl: number;
  minPersistentTtl: number;
  minTemporaryTtl: number;
};

export class Host implements Invocation {
  readonly events: HostEvent[] = [];
  readonly frames: Frame[] = [];
  instructions = 0;
  readonly ctx: HostContext;

  constructor(ctx: HostContext) {
    this.ctx = ctx;
  }

  get storage(): StorageView {
    return this.ctx.storage;
  }

  currentContract(): string | null {
    return this.frames.at(-1)?.contract ?? null;
  }

  /** Records the `error` diagnostic in the current contract's name and throws. */
  fail(type: ErrorType, code: ErrorCode | number, message: string, args: xdr.ScVal[]): never {
    const err = new HostError(type, code);
    this.diagnostic(this.currentContract(), [sym('error'), err.toScVal()], [str(message), ...args]);
    throw err;
  }

  diagnostic(contractId: string | null, topics: xdr.ScVal[], args: xdr.ScVal[]): void {
    this.events.push({ kind: 'diagnostic', contractId, topics, data: diagnosticData(args), failed: false });
  }

  /** Reads a ledger entry, turning a footprint miss into the host's Storage error. */
  read(key: xdr.LedgerKey, what: string, subject: xdr.ScVal): StoredEntry | undefined {
    this.instructions += COST.read;
    try {
      return this.storage.get(key);
    } catch (e) {
      if (e instanceof FootprintError) this.outsideFootprint(what, subject);
      throw e;
    }
  }

  write(
    key: xdr.LedgerKey,
    data: xdr.LedgerEntryData | null,
    liveUntil: number | undefined,
    what: string,
    subject: xdr.ScVal,
  ): void {
    this.instructions += COST.write;
    try {
      if (data) this.storage.put(key, data, liveUntil);
      else this.storage.remove(key);
    } catch (e) {
      if (e instanceof FootprintError) this.outsideFootprint(what, subject);
      throw e;
    }
  }

  /**
   * rs-soroban-env storage.rs `Storage::extend_ttl` (through `Host::extend_contract_data_ttl`):
   * threshold > extend_to is an error; a missing entry is the storage MissingValue error; the new
   * live_until is current + extend_to clamped to the max TTL, applied only when the entry has
   * `threshold` ledgers or fewer left and it would grow.
   */
  extendTtl(key: xdr.LedgerKey, threshold: number, extendTo: number, what: string, subject: xdr.ScVal): void {
    this.instructions += COST.read;
    if (threshold > extendTo) {
      this.fail('Storage', 'InvalidInput', 'threshold must be <= extend_to', [u32(threshold), u32(extendTo)]);
    }
    const entry = this.read(key, what, subject);
    if (!entry) return this.fail('Storage', 'MissingValue', `trying to get non-existing value for ${what}`, [subject]);
    if (entry.liveUntil === undefined) return;
    const seq = this.ctx.ledgerSeq;
    const newLiveUntil = Math.min(seq + extendTo, seq + this.ctx.maxEntryTtl - 1);
    if (entry.liveUntil - seq <= threshold && newLiveUntil > entry.liveUntil) this.storage.extendTtl(key, newLiveUntil);
  }

  private outsideFootprint(what: string, subject: xdr.ScVal): never {
    return this.fail('Storage', 'ExceededLimit', `trying to access ${what} outside of the footprint`, [subject]);
  }

  invoke(contract: string, fn: string, args: xdr.ScVal[]): xdr.ScVal {
    const caller = this.currentContract();
    this.diagnostic(caller, [sym('fn_call'), xdr.ScVal.scvBytes(contractIdBytes(contract)), sym(fn)], args);
    const frame: Frame = { contract, fn, args, eventStart: this.events.length };
    this.frames.push(frame);
    try {
      this.instructions += COST.call;
      const impl = this.load(contract);
      const result = impl.call(this.env(frame), fn, args);
      this.diagnostic(contract, [sym('fn_return'), sym(fn)], [result]);
      this.frames.pop();
      return result;
    } catch (e) {
      this.frames.pop();
      if (!(e instanceof HostError) || caller === null) throw e;
      // A failed sub-call: its events are rolled back (printed as "Failed … not emitted"),
      // then the calling Wasm frame reports the failed `call` host function and traps
      // with the callee's error code (host.rs, vm/dispatch.rs).
      for (let i = frame.eventStart; i < this.events.length; i++) this.events[i].failed = true;
      const errVal = e.toScVal();
      this.diagnostic(caller, [sym('error'), errVal], [str('contract call failed'), sym(fn), vec(args)]);
      this.diagnostic(
        caller,
        [sym('error'), errVal],
        [str('escalating error to VM trap from failed host function call: call')],
      );
      throw new HostError(e.errorType, e.errorCode);
    }
  }

  private load(contract: string): Contract {
    const deployed = this.ctx.contracts.get(contract);
    const address = xdr.ScVal.scvAddress(scAddress(contract));
    const instance = this.read(instanceKey(contract), 'contract instance key', address);
    if (!deployed || !instance) {
      return this.fail('Storage', 'MissingValue', 'trying to get non-existing value for contract instance', [address]);
    }
    if (deployed.wasmHash) {
      const code = this.read(codeKey(deployed.wasmHash), 'contract code key', xdr.ScVal.scvBytes(deployed.wasmHash));
      if (!code) return this.fail('Storage', 'MissingValue', 'trying to get non-existing contract code entry', []);
    }
    return deployed.impl;
  }

  private env(frame: Frame): Env {
    const host = this;
    const dataKey = (key: xdr.ScVal, d: Durability) => contractDataKey(frame.contract, key, d);
    // A new entry lives for the network's minimum TTL (state_archival min_persistent_ttl /
    // min_temporary_ttl; rs-soroban-env ledger_info.rs LedgerInfo::min_live_until_ledger_checked).
    const defaultTtl = (d: Durability) =>
      this.ctx.ledgerSeq + (d === 'persistent' ? this.ctx.minPersistentTtl : this.ctx.minTemporaryTtl) - 1;
    return {
      contract: frame.contract,
      ledgerSequence: () => host.ctx.ledgerSeq,
      ledgerTimestamp: () => host.ctx.timestamp,
      maxLiveUntil: () => host.ctx.ledgerSeq + host.ctx.maxEntryTtl - 1,
      requireAuth: (address) => host.ctx.auth.require(host, address),
      getData(key, d) {
        const e = host.read(dataKey(key, d), 'contract storage key', key);
        return e ? contractDataOf(e).val : undefined;
      },
      setData(key, val, d, liveUntil) {
        const k = dataKey(key, d);
        const prior = host.read(k, 'contract storage key', key);
        const data = xdr.LedgerEntryData.contractData(
          new xdr.ContractDataEntry({
            ext: xdr.ExtensionPoint.v0(),
            contract: k.contractData.contract,
            key,
            durability: k.contractData.durability,
            val,
          }),
        );
        host.write(k, data, Math.max(liveUntil ?? 0, prior?.liveUntil ?? defaultTtl(d)), 'contract storage key', key);
      },
      removeData(key, d) {
        host.write(dataKey(key, d), null, undefined, 'contract storage key', key);
      },
      extendTtl(key, d, threshold, extendTo) {
        host.extendTtl(dataKey(key, d), threshold, extendTo, 'contract storage key', key);
      },
      extendInstanceTtl(threshold, extendTo) {
        // Host::extend_current_contract_instance_and_code_ttl: the instance, then a Wasm contract's code.
        const address = xdr.ScVal.scvAddress(scAddress(frame.contract));
        host.extendTtl(instanceKey(frame.contract), threshold, extendTo, 'contract instance key', address);
        const wasmHash = host.ctx.contracts.get(frame.contract)?.wasmHash;
        if (wasmHash)
          host.extendTtl(codeKey(wasmHash), threshold, extendTo, 'contract code key', xdr.ScVal.scvBytes(wasmHash));
      },
      getLedgerEntry(key) {
        return host.read(key, classicKeyName(key), classicSubject(key))?.data;
      },
      putLedgerEntry(key, data) {
        host.write(key, data, undefined, classicKeyName(key), classicSubject(key));
      },
      instanceValue(key) {
        const e = host.storage.get(instanceKey(frame.contract));
        const val = e ? contractDataOf(e).val : undefined;
        const storage = val?.type === 'scvContractInstance' ? (val.instance.storage ?? []) : [];
        const wanted = key.toXdr('base64');
        return storage.find((m) => m.key.toXdr('base64') === wanted)?.val;
      },
      emit(topics, data) {
        host.instructions += COST.event;
        host.events.push({ kind: 'contract', contractId: frame.contract, topics, data, failed: false });
      },
      call: (contract, fn, args) => host.invoke(contract, fn, args),
      panic(_message) {
        // soroban-sdk's release panic handler executes `unreachable`; the text never leaves the VM.
        return host.fail('WasmVm', 'InvalidAction', 'VM call trapped: UnreachableCodeReached', [sym(frame.fn)]);
      },
      fail: (code, message, args) => host.fail('Contract', code, message, args),
    };
  }
}

/** storage.rs `get_key_type_string_for_error` for the classic entries the SAC touches. */
const classicKeyName = (k: xdr.LedgerKey): string => (k.type === 'trustline' ? 'account trustline' : 'account');

/** The account a classic key belongs to, as the error's argument (error.rs `account_address_from_key`). */
function classicSubject(k: xdr.LedgerKey): xdr.ScVal {
  const accountId =
    k.type === 'trustline' ? k.trustLine.accountId : k.type === 'account' ? k.account.accountId : undefined;
  return accountId ? xdr.ScVal.scvAddress(xdr.ScAddress.scAddressTypeAccount(accountId)) : xdr.ScVal.scvVoid();
}

const contractDataOf = (e: StoredEntry): xdr.ContractDataEntry =>
  xdr.expectUnionVariant(e.data, 'contractData').contractData;
