// Address-credential checks of soroban-env-host's auth.rs / account_contract.rs:
// expiration window, nonce replay, then the account's ed25519 signatures over
// SHA-256(HashIdPreimage SOROBAN_AUTHORIZATION {networkId, nonce, expiration, invocation}).
import { hash, Keypair, StrKey, xdr } from '@stellar/stellar-sdk';
import type { Host } from './host.ts';
import { COST } from './host.ts';
import { nonceEntry, nonceKey } from './auth.ts';
import { addr, field, u32 } from './scval.ts';
import { accountKey } from '../ledger/keys.ts';

export function verifyAddressCredentials(
  host: Host,
  address: string,
  entry: xdr.SorobanAuthorizationEntry,
  networkId: Uint8Array,
): void {
  const creds = xdr.expectUnionVariant(entry.credentials, 'sorobanCredentialsAddress').address;
  const expiration = creds.signatureExpirationLedger;
  const seq = host.ctx.ledgerSeq;
  const maxLiveUntil = seq + host.ctx.maxEntryTtl - 1;
  if (seq > expiration) {
    host.fail('Auth', 'InvalidInput', 'signature has expired', [addr(address), u32(seq), u32(expiration)]);
  }
  if (expiration > maxLiveUntil) {
    host.fail('Auth', 'InvalidInput', 'signature expiration is too late', [addr(address), u32(maxLiveUntil), u32(expiration)]);
  }
  const nonce = creds.nonce;
  const key = nonceKey(address, nonce);
  if (host.read(key, 'nonce', addr(address))) {
    host.fail('Auth', 'ExistingValue', 'nonce already exists for address', [addr(address)]);
  }
  host.write(key, nonceEntry(address, nonce), expiration, 'nonce', addr(address));

  const preimage = xdr.HashIdPreimage.envelopeTypeSorobanAuthorization(
    new xdr.HashIdPreimageSorobanAuthorization({
      networkId,
      nonce: creds.nonce,
      signatureExpirationLedger: expiration,
      invocation: entry.rootInvocation,
    }),
  );
  const payload = hash(preimage.toXdr());
  if (address.startsWith('G')) checkAccountSignatures(host, address, payload, creds.signature);
  else host.fail('Auth', 'InvalidAction', 'custom account contracts are not supported by the devnet', [addr(address)]);
}

function checkAccountSignatures(host: Host, address: string, payload: Uint8Array, signature: xdr.ScVal): void {
  const sigs = signature.type === 'scvVec' ? signature.vec ?? [] : null;
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
    if (pk.type !== 'scvBytes' || sg.type !== 'scvBytes') host.fail('Value', 'UnexpectedType', 'malformed account signature', []);
    const pkBytes = Buffer.from(pk.bytes.value);
    if (prev && Buffer.compare(prev, pkBytes) >= 0) {
      host.fail('Auth', 'InvalidInput', 'public keys are not ordered', [pk]);
    }
    host.instructions += COST.verify;
    if (pkBytes.length !== 32 || !Keypair.fromPublicKey(StrKey.encodeEd25519PublicKey(pkBytes)).verify(payload, sg.bytes.value)) {
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
