// LedgerKey builders and the base64 form used as map keys everywhere in the devnet.
import { Address, Keypair, StrKey, xdr } from '@stellar/stellar-sdk';

export const keyId = (k: xdr.LedgerKey): string => k.toXDR('base64');

export function accountKey(g: string): xdr.LedgerKey {
  return xdr.LedgerKey.account(new xdr.LedgerKeyAccount({ accountId: Keypair.fromPublicKey(g).xdrAccountId() }));
}

export function contractDataKey(
  contract: string,
  key: xdr.ScVal,
  durability: 'persistent' | 'temporary',
): xdr.LedgerKey {
  return xdr.LedgerKey.contractData(
    new xdr.LedgerKeyContractData({
      contract: new Address(contract).toScAddress(),
      key,
      durability:
        durability === 'persistent' ? xdr.ContractDataDurability.persistent() : xdr.ContractDataDurability.temporary(),
    }),
  );
}

export const instanceKey = (contract: string): xdr.LedgerKey =>
  contractDataKey(contract, xdr.ScVal.scvLedgerKeyContractInstance(), 'persistent');

export const codeKey = (wasmHash: Buffer): xdr.LedgerKey =>
  xdr.LedgerKey.contractCode(new xdr.LedgerKeyContractCode({ hash: wasmHash }));

export function isTemporary(k: xdr.LedgerKey): boolean {
  return k.switch().name === 'contractData' && k.contractData().durability().name === 'temporary';
}

/** Entries that live in the classic ledger count as disk reads since protocol 23 (CAP-66). */
export const isClassic = (k: xdr.LedgerKey): boolean =>
  k.switch().name === 'account' || k.switch().name === 'trustline';

export const accountOfKey = (k: xdr.LedgerKey): string =>
  StrKey.encodeEd25519PublicKey(k.account().accountId().ed25519());
