// Transaction hash and signature checks as stellar-core performs them at submission.
import { hash, Keypair, StrKey, xdr } from '@stellar/stellar-sdk';

/** SHA-256 of TransactionSignaturePayload {networkId, ENVELOPE_TYPE_TX, tx}. */
export function txHash(networkId: Uint8Array, tx: xdr.Transaction): Buffer {
  const type = Buffer.alloc(4);
  type.writeInt32BE(xdr.EnvelopeType.envelopeTypeTx.value);
  return Buffer.from(hash(Buffer.concat([networkId, type, tx.toXdr()])));
}

/** SHA-256 of {networkId, ENVELOPE_TYPE_TX_FEE_BUMP, FeeBumpTransaction} (FeeBumpTransactionFrame::getContentsHash). */
export function feeBumpHash(networkId: Uint8Array, tx: xdr.FeeBumpTransaction): Buffer {
  const type = Buffer.alloc(4);
  type.writeInt32BE(xdr.EnvelopeType.envelopeTypeTxFeeBump.value);
  return Buffer.from(hash(Buffer.concat([networkId, type, tx.toXdr()])));
}

/**
 * SHA-256 of the whole envelope, signatures included (TransactionFrame::getFullHash): the identity
 * stellar-core's queue bans and compares duplicates by.
 */
export const fullHash = (envelope: xdr.TransactionEnvelope): string =>
  Buffer.from(hash(envelope.toXdr())).toString('hex');

export type SignatureCheck = 'ok' | 'txBadAuth' | 'txBadAuthExtra';

/**
 * Every signature must come from a signer of the source account (else the extra
 * one is txBAD_AUTH_EXTRA) and their weights must reach the threshold (else
 * txBAD_AUTH). A threshold of 0 still needs one valid signature.
 */
export function checkTxSignatures(
  account: xdr.AccountEntry,
  payload: Uint8Array,
  signatures: xdr.DecoratedSignature[],
  /** Threshold index: 1 low (a fee bump's fee source), 2 medium (the default for operations). */
  level: 1 | 2 = 2,
): SignatureCheck {
  const thresholds = account.thresholds.value;
  const signers: { key: Buffer; weight: number }[] = [
    { key: Buffer.from(account.accountId.ed25519.value), weight: thresholds[0] },
    ...account.signers.flatMap((s) =>
      s.key.type === 'signerKeyTypeEd25519' ? [{ key: Buffer.from(s.key.ed25519.value), weight: s.weight }] : [],
    ),
  ];
  const used = new Set<number>();
  let weight = 0;
  for (const [i, sig] of signatures.entries()) {
    const hint = Buffer.from(sig.hint.value);
    for (const signer of signers) {
      if (signer.weight === 0 || !signer.key.subarray(28).equals(hint)) continue;
      const kp = Keypair.fromPublicKey(StrKey.encodeEd25519PublicKey(signer.key));
      if (!kp.verify(payload, sig.signature.value)) continue;
      if (!used.has(i)) weight += signer.weight;
      used.add(i);
      break;
    }
  }
  const needed = Math.max(1, thresholds[level]);
  if (weight < needed) return 'txBadAuth';
  if (used.size < signatures.length) return 'txBadAuthExtra';
  return 'ok';
}
