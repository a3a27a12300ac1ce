// Strkey <-> ScAddress conversions, memoized: strkey encoding (base32 + CRC16) was
// the largest single cost of a simulation. Cached XDR values are shared, which is
// safe because the devnet never mutates an XDR value after building it.
import { Address, Keypair, StrKey, xdr } from '@stellar/stellar-sdk';

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
  const kind = a.switch().name;
  let raw: Buffer;
  if (kind === 'scAddressTypeAccount') raw = Buffer.from(a.accountId().ed25519());
  else if (kind === 'scAddressTypeContract') raw = Buffer.from(a.contractId() as unknown as Buffer);
  else return Address.fromScAddress(a).toString();
  const cacheKey = `${kind === 'scAddressTypeAccount' ? 'G' : 'C'}${raw.toString('hex')}`;
  let s = toStrkey.get(cacheKey);
  if (!s) {
    s = kind === 'scAddressTypeAccount' ? StrKey.encodeEd25519PublicKey(raw) : StrKey.encodeContract(raw);
    toStrkey.set(cacheKey, s);
  }
  return s;
}

export function accountIdOf(g: string): xdr.AccountId {
  let id = accountIds.get(g);
  if (!id) {
    id = Keypair.fromPublicKey(g).xdrAccountId();
    accountIds.set(g, id);
  }
  return id;
}
