// Genesis: deterministic keys, contract ids and the initial ledger entries.
// Everything is derived from fixed labels, so every run of the devnet has the same
// accounts and contract ids (for a given passphrase).
import { Address, Asset, hash, Keypair, StrKey, xdr } from '@stellar/stellar-sdk';
import { accountEntry, FRIENDBOT_XLM } from '../ledger/accounts.ts';
import { codeKey, instanceKey, accountKey, keyId } from '../ledger/keys.ts';
import { LedgerState } from '../ledger/ledger-state.ts';
import type { DeployedContract } from '../host/contract.ts';
import { stellarAssetContract, tokenInstanceStorage } from '../contracts/token.ts';
import { subscriptionVault, type VaultBuild } from '../contracts/vault.ts';
import {
  AUTH_REVOCABLE_FLAG,
  AUTHORIZED_FLAG,
  I64_MAX,
  openTrustline,
  withAccountFlags,
  type CreditAsset,
} from '../contracts/classic.ts';

export const DEFAULT_PASSPHRASE = 'Local Billing Devnet ; 2026';
export const TOKEN_CODE = 'USDC';
export const GENESIS_SEQUENCE = 1;
const LONG_TTL = 3_110_400;

export const deriveKeypair = (label: string): Keypair =>
  Keypair.fromRawEd25519Seed(hash(Buffer.from(`billing-devnet:${label}`)));

export type Genesis = {
  tokenAdmin: Keypair;
  accounts: Keypair[];
  token: string;
  /** The token's classic asset, USDC:<token admin>: the SAC's name() and its holders' trustlines. */
  asset: CreditAsset;
  vault: string;
  contracts: Map<string, DeployedContract>;
  state: LedgerState;
};

export function buildGenesis(passphrase: string, accountCount: number, vaultBuild: VaultBuild = 'deployed'): Genesis {
  const tokenAdmin = deriveKeypair('token-admin');
  const accounts = Array.from({ length: accountCount }, (_, i) => deriveKeypair(`account/${i}`));
  const token = new Asset(TOKEN_CODE, tokenAdmin.publicKey()).contractId(passphrase);
  // Another build is other Wasm: another code hash under the same contract id.
  const vaultWasmHash = hash(
    Buffer.from(`billing-devnet:subscription-vault-wasm${vaultBuild === 'deployed' ? '' : `:${vaultBuild}`}`),
  );
  const vault = deployedContractId(passphrase, tokenAdmin.publicKey(), hash(Buffer.from('subscription-vault')));

  const state = new LedgerState();
  const startSeq = BigInt(GENESIS_SEQUENCE) << 32n;
  for (const kp of [tokenAdmin, ...accounts]) {
    state.set(keyId(accountKey(kp.publicKey())), {
      data: accountEntry(kp.publicKey(), FRIENDBOT_XLM, startSeq),
      lastModified: GENESIS_SEQUENCE,
    });
  }
  // The issuer may revoke authorization (AUTH_REVOCABLE), so a holder can be deauthorized as on a
  // regulated asset; every test account holds an authorized, unlimited USDC trustline.
  const adminKey = keyId(accountKey(tokenAdmin.publicKey()));
  state.set(adminKey, {
    data: withAccountFlags(state.get(adminKey)!.data, AUTH_REVOCABLE_FLAG),
    lastModified: GENESIS_SEQUENCE,
  });
  const asset: CreditAsset = { code: TOKEN_CODE, issuer: tokenAdmin.publicKey() };
  for (const kp of accounts)
    openTrustline(state, GENESIS_SEQUENCE, kp.publicKey(), asset, { limit: I64_MAX, flags: AUTHORIZED_FLAG });
  const tokenName = `${TOKEN_CODE}:${tokenAdmin.publicKey()}`;
  putInstance(
    state,
    token,
    xdr.ContractExecutable.contractExecutableStellarAsset(),
    tokenInstanceStorage(tokenAdmin.publicKey(), tokenName, TOKEN_CODE),
  );
  putInstance(state, vault, xdr.ContractExecutable.contractExecutableWasm(vaultWasmHash), []);
  state.set(keyId(codeKey(vaultWasmHash)), {
    data: xdr.LedgerEntryData.contractCode(
      new xdr.ContractCodeEntry({
        ext: xdr.ContractCodeEntryExt.v0(),
        hash: vaultWasmHash,
        // Stand-in bytes: the vault runs as TypeScript, but its code entry exists as on chain.
        code: Buffer.from('\0asm devnet subscription vault'),
      }),
    ),
    lastModified: GENESIS_SEQUENCE,
    liveUntil: GENESIS_SEQUENCE + LONG_TTL,
  });

  const contracts = new Map<string, DeployedContract>([
    [token, { id: token, impl: stellarAssetContract }],
    [vault, { id: vault, impl: subscriptionVault(vaultBuild), wasmHash: vaultWasmHash }],
  ]);
  return { tokenAdmin, accounts, token, asset, vault, contracts, state };
}

function putInstance(state: LedgerState, id: string, executable: xdr.ContractExecutable, storage: xdr.ScMapEntry[]) {
  const key = instanceKey(id);
  state.set(keyId(key), {
    data: xdr.LedgerEntryData.contractData(
      new xdr.ContractDataEntry({
        ext: xdr.ExtensionPoint.v0(),
        contract: key.contractData.contract,
        key: key.contractData.key,
        durability: xdr.ContractDataDurability.persistent,
        val: xdr.ScVal.scvContractInstance(new xdr.ScContractInstance({ executable, storage })),
      }),
    ),
    lastModified: GENESIS_SEQUENCE,
    liveUntil: GENESIS_SEQUENCE + LONG_TTL,
  });
}

/** The id a deployer at `deployer` with `salt` gets (HashIdPreimage CONTRACT_ID, from address). */
function deployedContractId(passphrase: string, deployer: string, salt: Uint8Array): string {
  const preimage = xdr.HashIdPreimage.envelopeTypeContractId(
    new xdr.HashIdPreimageContractId({
      networkId: hash(Buffer.from(passphrase)),
      contractIdPreimage: xdr.ContractIdPreimage.contractIdPreimageFromAddress(
        new xdr.ContractIdPreimageFromAddress({ address: new Address(deployer).toScAddress(), salt }),
      ),
    }),
  );
  return StrKey.encodeContract(hash(preimage.toXdr()));
}
