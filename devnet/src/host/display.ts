// Text form of ScVals and events, following soroban-env-host's Display impls
// (events/mod.rs), which is what the "Event log" in a simulation error shows.
import { StrKey, type xdr } from '@stellar/stellar-sdk';
import { strkeyOf } from '../ledger/addresses.ts';
import { fromScError } from './host-error.ts';
import { readI128 } from './scval.ts';
import type { HostEvent } from './events.ts';

export function displayScVal(v: xdr.ScVal): string {
  switch (v.type) {
    case 'scvBool':
      return String(v.b);
    case 'scvVoid':
      return 'Void';
    case 'scvError':
      return fromScError(v.error);
    case 'scvU32':
      return String(v.u32);
    case 'scvI32':
      return String(v.i32);
    case 'scvU64':
      return v.u64.toString();
    case 'scvI64':
      return v.i64.toString();
    case 'scvTimepoint':
      return `TimePoint(${v.timepoint.toString()})`;
    case 'scvDuration':
      return `Duration(${v.duration.toString()})`;
    case 'scvU128':
      return ((v.u128.hi << 64n) | v.u128.lo).toString();
    case 'scvI128':
      return readI128(v).toString();
    case 'scvBytes':
      return `Bytes(${Buffer.from(v.bytes.value).toString('hex')})`;
    case 'scvString':
      return `"${v.str.toString()}"`;
    case 'scvSymbol':
      return v.sym.toString();
    case 'scvVec':
      return `[${(v.vec ?? []).map(displayScVal).join(', ')}]`;
    case 'scvMap':
      return `{${(v.map ?? []).map((e) => `${displayScVal(e.key)}: ${displayScVal(e.val)}`).join(', ')}}`;
    case 'scvAddress':
      return strkeyOf(v.address);
    case 'scvLedgerKeyContractInstance':
      return 'LedgerKeyContractInstance';
    case 'scvLedgerKeyNonce':
      return `LedgerKeyNonce(${v.nonceKey.nonce.toString()})`;
    default:
      return v.type;
  }
}

export function displayEvent(e: HostEvent): string {
  const kind = e.kind === 'contract' ? 'Contract' : 'Diagnostic';
  let out = e.failed ? `[Failed ${kind} Event (not emitted)] ` : `[${kind} Event] `;
  if (e.contractId) out += `contract:${e.contractId}, `;
  const first = e.topics[0];
  const isFnCall = first?.type === 'scvSymbol' && first.sym.toString() === 'fn_call';
  const topics = e.topics.map((t, i) =>
    // fn_call carries the callee as raw Bytes; the host prints it as a C… strkey.
    i === 1 && isFnCall && t.type === 'scvBytes' && t.bytes.value.length === 32
      ? StrKey.encodeContract(t.bytes.value)
      : displayScVal(t),
  );
  return `${out}topics:[${topics.join(', ')}], data:${displayScVal(e.data)}`;
}

const MAX_EVENTS = 25;

/** The `error` string of a failed simulation: `format!("{:?}", HostError)` as RPC writes it. */
export function formatHostErrorText(error: string, events: HostEvent[]): string {
  let out = `HostError: ${error}\n`;
  const newestFirst = [...events].reverse();
  if (newestFirst.length > 0) out += '\nEvent log (newest first):\n';
  newestFirst.slice(0, MAX_EVENTS).forEach((e, i) => {
    out += `   ${i}: ${displayEvent(e)}\n`;
  });
  if (newestFirst.length > MAX_EVENTS) out += `   ${MAX_EVENTS}: ... elided ...\n`;
  return out;
}
