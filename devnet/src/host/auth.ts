// require_auth for one invocation. Record mode (simulation without auth entries)
// builds the entries the real simulator would return; enforce mode matches the
// transaction's entries to the call tree and checks address credentials
// (expiration, nonce, ed25519 signatures over the network-bound payload).
import { xdr } from '@stellar/stellar-sdk';
import { scAddress, strkeyOf } from '../ledger/addresses.ts';
import { randomBytes } from 'node:crypto';
import type { Frame, Invocation } from './invocation.ts';
import { verifyAddressCredentials } from './auth-credentials.ts';
import { addr, scvEquals } from './scval.ts';
import { accountKey as accountLedgerKey, nonceEntry, nonceKey } from '../ledger/keys.ts';

type Node = { frame: Frame; children: Node[] };
type Recorded = { address: string; nonce?: bigint; root: Node };
type Tracker = {
  address: string;
  entry: xdr.SorobanAuthorizationEntry;
  matched: Map<xdr.SorobanAuthorizedInvocation, Frame>;
};

export type AuthMode = 'record' | 'enforce';

export class AuthManager {
  readonly mode: AuthMode;
  private readonly source: string;
  private readonly networkId: Uint8Array;
  private readonly useAddressV2: boolean;
  private readonly recorded: Recorded[] = [];
  private readonly trackers: Tracker[];

  /**
   * `useAddressV2`: recording returns CAP-71 SOROBAN_CREDENTIALS_ADDRESS_V2 instead of legacy
   * ADDRESS for non-source signers, as simulateTransaction does with `useUpgradedAuth: true`
   * (rs-soroban-env e2e_invoke.rs RecordedAuthPayload::into_auth_entry_with_emulated_signature).
   */
  constructor(
    mode: AuthMode,
    source: string,
    entries: xdr.SorobanAuthorizationEntry[],
    networkId: Uint8Array,
    useAddressV2 = false,
  ) {
    this.mode = mode;
    this.useAddressV2 = useAddressV2;
    this.source = source;
    this.networkId = networkId;
    this.trackers = entries.map((entry) => ({
      address: credentialAddress(entry.credentials) ?? source,
      entry,
      matched: new Map(),
    }));
  }

  require(host: Invocation, address: string): void {
    const frames = host.frames;
    const current = frames.at(-1)!;
    // A contract is implicitly authorized for calls it makes directly.
    if (frames.length >= 2 && frames[frames.length - 2].contract === address) return;
    if (this.mode === 'record') this.record(host, address, current);
    else this.enforce(host, address, current);
  }

  /** The entries a recording simulation returns, in the order they were first needed. */
  entries(): xdr.SorobanAuthorizationEntry[] {
    return this.recorded.map((r) => {
      if (r.nonce === undefined) {
        return new xdr.SorobanAuthorizationEntry({
          credentials: xdr.SorobanCredentials.sorobanCredentialsSourceAccount(),
          rootInvocation: toInvocation(r.root),
        });
      }
      const address = new xdr.SorobanAddressCredentials({
        address: scAddress(r.address),
        nonce: r.nonce,
        signatureExpirationLedger: 0,
        signature: xdr.ScVal.scvVoid(),
      });
      const credentials = this.useAddressV2
        ? xdr.SorobanCredentials.sorobanCredentialsAddressV2(address)
        : xdr.SorobanCredentials.sorobanCredentialsAddress(address);
      return new xdr.SorobanAuthorizationEntry({ credentials, rootInvocation: toInvocation(r.root) });
    });
  }

  private record(host: Invocation, address: string, current: Frame): void {
    for (const r of this.recorded) {
      if (r.address !== address) continue;
      const parent = deepestOnStack(r.root, host.frames);
      if (!parent) continue;
      if (parent.frame !== current) parent.children.push({ frame: current, children: [] });
      return;
    }
    const isSource = address === this.source;
    const nonce = isSource ? undefined : randomBytes(8).readBigInt64BE() & 0x7fff_ffff_ffff_ffffn;
    this.recorded.push({ address, nonce, root: { frame: current, children: [] } });
    if (nonce !== undefined) {
      // The real recorder consumes the nonce (RW footprint) and the verifier will read the account.
      host.write(nonceKey(address, nonce), nonceEntry(address, nonce), host.ctx.ledgerSeq, 'nonce', addr(address));
      if (address.startsWith('G')) host.read(accountLedgerKey(address), 'account', addr(address));
    }
  }

  private enforce(host: Invocation, address: string, current: Frame): void {
    for (const t of this.trackers) {
      if (t.address !== address) continue;
      const root = t.entry.rootInvocation;
      if (t.matched.size > 0) {
        const parent = deepestMatched(t, root, host.frames);
        const child = parent?.subInvocations.find((c) => !t.matched.has(c) && matches(c, current));
        if (child) {
          t.matched.set(child, current);
          return;
        }
        continue;
      }
      if (!matches(root, current)) continue;
      t.matched.set(root, current);
      if (t.entry.credentials.type !== 'sorobanCredentialsSourceAccount') {
        verifyAddressCredentials(host, address, t.entry, this.networkId);
      }
      return;
    }
    host.fail('Auth', 'InvalidAction', 'Unauthorized function call for address', [addr(address)]);
  }
}

function matches(inv: xdr.SorobanAuthorizedInvocation, frame: Frame): boolean {
  const f = inv.function;
  if (f.type !== 'sorobanAuthorizedFunctionTypeContractFn') return false;
  const c = f.contractFn;
  const args = c.args;
  return (
    strkeyOf(c.contractAddress) === frame.contract &&
    c.functionName.toString() === frame.fn &&
    args.length === frame.args.length &&
    args.every((a, i) => scvEquals(a, frame.args[i]))
  );
}

function deepestOnStack(node: Node, stack: Frame[]): Node | undefined {
  if (!stack.includes(node.frame)) return undefined;
  for (const c of node.children) {
    const d = deepestOnStack(c, stack);
    if (d) return d;
  }
  return node;
}

function deepestMatched(
  t: Tracker,
  inv: xdr.SorobanAuthorizedInvocation,
  stack: Frame[],
): xdr.SorobanAuthorizedInvocation | undefined {
  const frame = t.matched.get(inv);
  if (!frame || !stack.includes(frame)) return undefined;
  for (const c of inv.subInvocations) {
    const d: xdr.SorobanAuthorizedInvocation | undefined = deepestMatched(t, c, stack);
    if (d) return d;
  }
  return inv;
}

function toInvocation(node: Node): xdr.SorobanAuthorizedInvocation {
  return new xdr.SorobanAuthorizedInvocation({
    function: xdr.SorobanAuthorizedFunction.sorobanAuthorizedFunctionTypeContractFn(
      new xdr.InvokeContractArgs({
        contractAddress: scAddress(node.frame.contract),
        functionName: node.frame.fn,
        args: node.frame.args,
      }),
    ),
    subInvocations: node.children.map(toInvocation),
  });
}

/** The address an entry's credentials name; undefined for SOURCE_ACCOUNT credentials. */
export function credentialAddress(c: xdr.SorobanCredentials): string | undefined {
  switch (c.type) {
    case 'sorobanCredentialsSourceAccount':
      return undefined;
    case 'sorobanCredentialsAddress':
      return strkeyOf(c.address.address);
    case 'sorobanCredentialsAddressV2':
      return strkeyOf(c.addressV2.address);
    case 'sorobanCredentialsAddressWithDelegates':
      return strkeyOf(c.addressWithDelegates.addressCredentials.address);
  }
}
