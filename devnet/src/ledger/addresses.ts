// Strkey <-> ScAddress conversions, memoized: strkey encoding (base32 + CRC16) was
// the largest single cost of a simulation. Cached XDR values are shared, which is
// safe because the devnet never mutates an XDR value after building it.
import { Address, Keypair, StrKey, type xdr } from '@stellar/stellar-sdk';

const toScAddress = new Map<string, xdr.ScAddress>();
const toStrkey = new Map<string, string>();
const accountIds = new Map<string, xdr.AccountId>();

export function scAddress(strkey: string): xdr.ScAddress {
  let a = toScAddress.get(strkey);
  if (!a) {
    a = new Address(strkey).toScAddress();
    toScAddress.set(strkey, a);
  }
  return a;
}

export function strkeyOf(a: xdr.ScAddress): string {
  let raw: Uint8Array;
  if (a.type === 'scAddressTypeAccount') raw = a.accountId.ed25519.value;
  else if (a.type === 'scAddressTypeContract') raw = a.contractId.value;
  else return Address.fromScAddress(a).toString();
  const isAccount = a.type === 'scAddressTypeAccount';
  const cacheKey = `${isAccount ? 'G' : 'C'}${Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('hex')}`;
  let s = toStrkey.get(cacheKey);
  if (!s) {
    s = isAccount ? StrKey.encodeEd25519PublicKey(raw) : StrKey.encodeContract(raw);
    toStrkey.set(cacheKey, s);
  }
  return s;
}

/** The 32 raw bytes of a C… contract id. */
export const contractIdBytes = (contract: string): Uint8Array => {
  const a = scAddress(contract);
  if (a.type !== 'scAddressTypeContract') throw new Error(`not a contract address: ${contract}`);
  return a.contractId.value;
};

export function accountIdOf(g: string): xdr.AccountId {
  let id = accountIds.get(g);
  if (!id) {
    id = Keypair.fromPublicKey(g).xdrAccountId();
    accountIds.set(g, id);
  }
  return id;
}
