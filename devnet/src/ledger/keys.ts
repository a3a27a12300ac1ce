// LedgerKey builders and the base64 form used as map keys everywhere in the devnet.
import { StrKey, xdr } from '@stellar/stellar-sdk';
import { accountIdOf, scAddress } from './addresses.ts';

// Encoding a LedgerKey is the hot path of every storage access; keys built once
// (instances, code, accounts) are reused, and each key object is encoded once.
const ids = new WeakMap<xdr.LedgerKey, string>();
export function keyId(k: xdr.LedgerKey): string {
  let id = ids.get(k);
  if (id === undefined) {
    id = k.toXdr('base64');
    ids.set(k, id);
  }
  return id;
}

function memo<T>(build: (s: string) => T): (s: string) => T {
  const cache = new Map<string, T>();
  return (s) => {
    let v = cache.get(s);
    if (v === undefined) {
      v = build(s);
      cache.set(s, v);
    }
    return v;
  };
}

export const accountKey = memo(
  (g: string): xdr.LedgerKey => xdr.LedgerKey.account(new xdr.LedgerKeyAccount({ accountId: accountIdOf(g) })),
);

export function contractDataKey(
  contract: string,
  key: xdr.ScVal,
  durability: 'persistent' | 'temporary',
): xdr.LedgerKeyContractDataArm {
  return xdr.LedgerKey.contractData(
    new xdr.LedgerKeyContractData({
      contract: scAddress(contract),
      key,
      durability:
        durability === 'persistent' ? xdr.ContractDataDurability.persistent : xdr.ContractDataDurability.temporary,
    }),
  );
}

export const instanceKey = memo(
  (contract: string): xdr.LedgerKeyContractDataArm =>
    contractDataKey(contract, xdr.ScVal.scvLedgerKeyContractInstance(), 'persistent'),
);

const codeKeyByHex = memo((hex: string) =>
  xdr.LedgerKey.contractCode(new xdr.LedgerKeyContractCode({ hash: Buffer.from(hex, 'hex') })),
);
export const codeKey = (wasmHash: Uint8Array): xdr.LedgerKey => codeKeyByHex(Buffer.from(wasmHash).toString('hex'));

export function isTemporary(k: xdr.LedgerKey): boolean {
  return k.type === 'contractData' && k.contractData.durability.name === 'temporary';
}

/** Entries that live in the classic ledger count as disk reads since protocol 23 (CAP-66). */
export const isClassic = (k: xdr.LedgerKey): boolean => k.type === 'account' || k.type === 'trustline';

export const accountOfKey = (k: xdr.LedgerKey): string =>
  StrKey.encodeEd25519PublicKey(xdr.expectUnionVariant(k, 'account').account.accountId.ed25519.value);

/** The temporary entry that marks an auth nonce used (require_auth with address credentials). */
export function nonceKey(address: string, nonce: bigint): xdr.LedgerKey {
  return xdr.LedgerKey.contractData(
    new xdr.LedgerKeyContractData({
      contract: scAddress(address),
      key: nonceVal(nonce),
      durability: xdr.ContractDataDurability.temporary,
    }),
  );
}

export function nonceEntry(address: string, nonce: bigint): xdr.LedgerEntryData {
  return xdr.LedgerEntryData.contractData(
    new xdr.ContractDataEntry({
      ext: xdr.ExtensionPoint.v0(),
      contract: scAddress(address),
      key: nonceVal(nonce),
      durability: xdr.ContractDataDurability.temporary,
      val: xdr.ScVal.scvVoid(),
    }),
  );
}

const nonceVal = (nonce: bigint) => xdr.ScVal.scvLedgerKeyNonce(new xdr.ScNonceKey({ nonce }));
