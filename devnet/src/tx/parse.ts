// Pulling the parts the devnet needs out of a TransactionEnvelope.
import { StrKey, xdr } from '@stellar/stellar-sdk';

export type ParsedTx = {
  envelope: xdr.TransactionEnvelope;
  /** The transaction that executes: the envelope's, or a fee-bump's inner one. */
  tx: xdr.Transaction;
  signatures: xdr.DecoratedSignature[];
  source: string;
  ops: xdr.Operation[];
};

export function muxedToG(m: xdr.MuxedAccount): string {
  return m.type === 'keyTypeEd25519'
    ? StrKey.encodeEd25519PublicKey(m.ed25519.value)
    : StrKey.encodeEd25519PublicKey(m.med25519.ed25519.value);
}

/** Throws on anything that is not a decodable v1 (or fee-bumped v1) envelope. */
export function parseEnvelope(b64: string): ParsedTx {
  const envelope = xdr.TransactionEnvelope.fromXdr(b64, 'base64');
  let v1: xdr.TransactionV1Envelope;
  switch (envelope.type) {
    case 'envelopeTypeTx':
      v1 = envelope.v1;
      break;
    case 'envelopeTypeTxFeeBump':
      v1 = envelope.feeBump.tx.innerTx.v1;
      break;
    default:
      throw new Error('unsupported envelope type');
  }
  const tx = v1.tx;
  return { envelope, tx, signatures: v1.signatures, source: muxedToG(tx.sourceAccount), ops: tx.operations };
}

export type SorobanOp = {
  hostFunction: xdr.HostFunction;
  auth: xdr.SorobanAuthorizationEntry[];
  /** Operation source if set, else the transaction source. */
  source: string;
};

export function sorobanOp(p: ParsedTx): SorobanOp | undefined {
  const op = p.ops[0];
  if (!op || op.body.type !== 'invokeHostFunction') return undefined;
  const body = op.body.invokeHostFunctionOp;
  const opSource = op.sourceAccount;
  return { hostFunction: body.hostFunction, auth: body.auth, source: opSource ? muxedToG(opSource) : p.source };
}

export function sorobanData(tx: xdr.Transaction): xdr.SorobanTransactionData | undefined {
  return tx.ext.type === 'sorobanData' ? tx.ext.sorobanData : undefined;
}

export function timeBounds(tx: xdr.Transaction): { minTime: number; maxTime: number } {
  const cond = tx.cond;
  const tb = cond.type === 'precondTime' ? cond.timeBounds : cond.type === 'precondV2' ? cond.v2.timeBounds : null;
  if (!tb) return { minTime: 0, maxTime: 0 };
  return { minTime: Number(tb.minTime), maxTime: Number(tb.maxTime) };
}
