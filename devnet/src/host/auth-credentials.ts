// Address-credential checks of rs-soroban-env soroban-env-host/src/auth.rs
// (AccountAuthorizationTracker::verify_and_consume_nonce, ::get_signature_payload,
// ::authenticate) and builtin_contracts/account_contract.rs (check_account_authentication):
// expiration window, nonce replay, then the account's ed25519 signatures over SHA-256 of the
// HashIdPreimage the credential arm selects:
// - SOROBAN_CREDENTIALS_ADDRESS (legacy): ENVELOPE_TYPE_SOROBAN_AUTHORIZATION (9),
//   {networkId, nonce, signatureExpirationLedger, invocation};
// - SOROBAN_CREDENTIALS_ADDRESS_V2 and …_WITH_DELEGATES (CAP-71): ENVELOPE_TYPE_SOROBAN_
//   AUTHORIZATION_WITH_ADDRESS (10), {networkId, nonce, signatureExpirationLedger, address,
//   invocation} — AccountAuthorizationCredentials::uses_preimage_with_address. Delegates sign
//   the same payload, bound to the top-level address; only a custom account's __check_auth
//   consults them (Host::delegate_account_auth), so a classic account ignores them.
import { hash, Keypair, StrKey, xdr } from '@stellar/stellar-sdk';
import { COST, type Invocation } from './invocation.ts';
import { HostError } from './host-error.ts';
import { addr, field, u32 } from './scval.ts';
import { accountKey, nonceEntry, nonceKey } from '../ledger/keys.ts';

/** The address credentials of an entry, whichever address arm carries them. */
export function addressCredentials(c: xdr.SorobanCredentials): xdr.SorobanAddressCredentials | undefined {
  switch (c.type) {
    case 'sorobanCredentialsAddress':
      return c.address;
    case 'sorobanCredentialsAddressV2':
      return c.addressV2;
    case 'sorobanCredentialsAddressWithDelegates':
      return c.addressWithDelegates.addressCredentials;
    default:
      return undefined;
  }
}

/** The payload an address credential's signature covers (get_signature_payload). */
export function signaturePayload(
  networkId: Uint8Array,
  credentials: xdr.SorobanCredentials,
  invocation: xdr.SorobanAuthorizedInvocation,
): Uint8Array {
  const creds = addressCredentials(credentials);
  if (!creds) throw new Error('source-account credentials carry no signature');
  const preimage =
    credentials.type === 'sorobanCredentialsAddress'
      ? xdr.HashIdPreimage.envelopeTypeSorobanAuthorization(
          new xdr.HashIdPreimageSorobanAuthorization({
            networkId,
            nonce: creds.nonce,
            signatureExpirationLedger: creds.signatureExpirationLedger,
            invocation,
          }),
        )
      : xdr.HashIdPreimage.envelopeTypeSorobanAuthorizationWithAddress(
          new xdr.HashIdPreimageSorobanAuthorizationWithAddress({
            networkId,
            nonce: creds.nonce,
            signatureExpirationLedger: creds.signatureExpirationLedger,
            address: creds.address,
            invocation,
          }),
        );
  return hash(preimage.toXdr());
}

/** The classic-account signature value: Vec<{public_key: BytesN<32>, signature: BytesN<64>}>. */
export function accountSignature(signer: Keypair, payload: Uint8Array): xdr.ScVal {
  const sig = xdr.ScVal.scvMap([
    new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol('public_key'), val: xdr.ScVal.scvBytes(signer.rawPublicKey()) }),
    new xdr.ScMapEntry({ key: xdr.ScVal.scvSymbol('signature'), val: xdr.ScVal.scvBytes(signer.sign(payload)) }),
  ]);
  return xdr.ScVal.scvVec([sig]);
}

export function verifyAddressCredentials(
  host: Invocation,
  address: string,
  entry: xdr.SorobanAuthorizationEntry,
  networkId: Uint8Array,
): void {
  const creds = addressCredentials(entry.credentials);
  if (!creds) throw new Error('source-account credentials carry no signature');
  if (entry.credentials.type === 'sorobanCredentialsAddressWithDelegates') {
    checkDelegateOrder(host, entry.credentials.addressWithDelegates.delegates);
  }
  // maybe_authorize_invocation: authenticate first; a recoverable failure is re-raised as
  // Error(Auth, InvalidAction) "failed account authentication with error" (HostError::is_recoverable);
  // then verify_and_consume_nonce checks expiration and replay, unwrapped.
  const payload = signaturePayload(networkId, entry.credentials, entry.rootInvocation);
  try {
    if (address.startsWith('G')) checkAccountSignatures(host, address, payload, creds.signature);
    else
      host.fail('Auth', 'InvalidAction', 'custom account contracts are not supported by the devnet', [addr(address)]);
  } catch (e) {
    if (!(e instanceof HostError) || !isRecoverable(e)) throw e;
    host.fail('Auth', 'InvalidAction', 'failed account authentication with error', [addr(address), e.toScVal()]);
  }

  const expiration = creds.signatureExpirationLedger;
  const seq = host.ctx.ledgerSeq;
  const maxLiveUntil = seq + host.ctx.maxEntryTtl - 1;
  if (seq > expiration) {
    host.fail('Auth', 'InvalidInput', 'signature has expired', [addr(address), u32(seq), u32(expiration)]);
  }
  if (expiration > maxLiveUntil) {
    host.fail('Auth', 'InvalidInput', 'signature expiration is too late', [
      addr(address),
      u32(maxLiveUntil),
      u32(expiration),
    ]);
  }
  const nonce = creds.nonce;
  const key = nonceKey(address, nonce);
  if (host.read(key, 'nonce', addr(address))) {
    host.fail('Auth', 'ExistingValue', 'nonce already exists for address', [addr(address)]);
  }
  host.write(key, nonceEntry(address, nonce), expiration, 'nonce', addr(address));
}

/** soroban-env-host/src/host/error.rs HostError::is_recoverable. */
function isRecoverable(e: HostError): boolean {
  if (e.errorType !== 'Contract' && e.errorCode === 'InternalError') return false;
  if (e.errorCode === 'ExceededLimit' && (e.errorType === 'Storage' || e.errorType === 'Budget')) return false;
  return true;
}

/** DelegatedAccountAuthSignerTreeNode::from_xdr: delegates strictly ordered by address, at every level. */
function checkDelegateOrder(host: Invocation, delegates: xdr.SorobanDelegateSignature[]): void {
  for (let i = 1; i < delegates.length; i++) {
    const order = Buffer.compare(
      Buffer.from(delegates[i - 1].address.toXdr()),
      Buffer.from(delegates[i].address.toXdr()),
    );
    if (order === 0) host.fail('Auth', 'InvalidInput', 'delegated signers contain duplicate address', []);
    if (order > 0) host.fail('Auth', 'InvalidInput', 'delegated signer addresses are not in sorted order', []);
  }
  for (const d of delegates) checkDelegateOrder(host, d.nestedDelegates);
}

function checkAccountSignatures(host: Invocation, address: string, payload: Uint8Array, signature: xdr.ScVal): void {
  const sigs = signature.type === 'scvVec' ? (signature.vec ?? []) : null;
  if (sigs === null) host.fail('Value', 'UnexpectedType', 'account signatures must be a vector', []);
  if (sigs.length === 0) host.fail('Auth', 'InvalidInput', 'no account signatures found', []);
  const account = host.read(accountKey(address), 'account', addr(address));
  if (!account) host.fail('Auth', 'InvalidInput', 'account entry is missing', [addr(address)]);
  const entry = xdr.expectUnionVariant(account.data, 'account').account;
  let weight = 0;
  let prev: Buffer | undefined;
  for (const sig of sigs) {
    const pk = field(sig, 'public_key');
    const sg = field(sig, 'signature');
    if (!pk || !sg) host.fail('Value', 'UnexpectedType', 'malformed account signature', []);
    if (pk.type !== 'scvBytes' || sg.type !== 'scvBytes')
      host.fail('Value', 'UnexpectedType', 'malformed account signature', []);
    const pkBytes = Buffer.from(pk.bytes.value);
    if (prev && Buffer.compare(prev, pkBytes) >= 0) {
      host.fail('Auth', 'InvalidInput', 'public keys are not ordered', [pk]);
    }
    host.instructions += COST.verify;
    if (
      pkBytes.length !== 32 ||
      !Keypair.fromPublicKey(StrKey.encodeEd25519PublicKey(pkBytes)).verify(payload, sg.bytes.value)
    ) {
      host.fail('Crypto', 'InvalidInput', 'failed ED25519 verification', [sg]);
    }
    const signerWeight = weightOf(entry, pkBytes);
    if (signerWeight === 0) host.fail('Auth', 'InvalidInput', 'signer does not belong to account', [pk]);
    weight += signerWeight;
    prev = pkBytes;
  }
  const threshold = entry.thresholds.value[2];
  if (weight < threshold) {
    host.fail('Auth', 'InvalidInput', 'signature weight is lower than threshold', [u32(weight), u32(threshold)]);
  }
}

function weightOf(entry: xdr.AccountEntry, pk: Buffer): number {
  if (Buffer.compare(Buffer.from(entry.accountId.ed25519.value), pk) === 0) return entry.thresholds.value[0];
  for (const s of entry.signers) {
    if (s.key.type === 'signerKeyTypeEd25519' && Buffer.compare(Buffer.from(s.key.ed25519.value), pk) === 0) {
      return s.weight;
    }
  }
  return 0;
}
