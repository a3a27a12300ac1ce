// Pulling the parts the devnet needs out of a TransactionEnvelope.
import { StrKey, xdr } from '@stellar/stellar-sdk';

/** The outer layer of a fee-bump envelope (stellar-core FeeBumpTransactionFrame). */
export type FeeBumpLayer = {
  feeSource: string;
  /** The outer fee: what the fee source bids in total (inclusion fee + the inner resource fee). */
  fee: bigint;
  signatures: xdr.DecoratedSignature[];
  tx: xdr.FeeBumpTransaction;
};

export type ParsedTx = {
  envelope: xdr.TransactionEnvelope;
  /** The transaction that executes: the envelope's, or a fee-bump's inner one. */
  tx: xdr.Transaction;
  /** The executing transaction's own signatures (the inner ones for a fee bump). */
  signatures: xdr.DecoratedSignature[];
  source: string;
  ops: xdr.Operation[];
  feeBump?: FeeBumpLayer;
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
  let feeBump: FeeBumpLayer | undefined;
  switch (envelope.type) {
    case 'envelopeTypeTx':
      v1 = envelope.v1;
      break;
    case 'envelopeTypeTxFeeBump': {
      const fb = envelope.feeBump;
      v1 = fb.tx.innerTx.v1;
      feeBump = { feeSource: muxedToG(fb.tx.feeSource), fee: BigInt(fb.tx.fee), signatures: fb.signatures, tx: fb.tx };
      break;
    }
    default:
      throw new Error('unsupported envelope type');
  }
  const tx = v1.tx;
  return { envelope, tx, signatures: v1.signatures, source: muxedToG(tx.sourceAccount), ops: tx.operations, feeBump };
}

/** The inner transaction of a fee bump as its own v1 envelope (FeeBumpTransactionFrame::convertInnerTxToV1). */
export function innerEnvelope(p: ParsedTx): xdr.TransactionEnvelope {
  return xdr.TransactionEnvelope.envelopeTypeTx(new xdr.TransactionV1Envelope({ tx: p.tx, signatures: p.signatures }));
}

export type SorobanOp = {
  hostFunction: xdr.HostFunction;
  auth: xdr.SorobanAuthorizationEntry[];
  /** Operation source if set, else the transaction source. */
  source: string;
};

export function sorobanOp(p: ParsedTx): SorobanOp | undefined {
  const op = p.ops[0];
  if (op?.body.type !== 'invokeHostFunction') return undefined;
  const body = op.body.invokeHostFunctionOp;
  const opSource = op.sourceAccount;
  return { hostFunction: body.hostFunction, auth: body.auth, source: opSource ? muxedToG(opSource) : p.source };
}

/** The three Soroban operation types (TransactionFrame::isSoroban). */
export type SorobanOpType = 'invokeHostFunction' | 'extendFootprintTtl' | 'restoreFootprint';

export function sorobanOpType(p: ParsedTx): SorobanOpType | undefined {
  const t = p.ops[0]?.body.type;
  return t === 'invokeHostFunction' || t === 'extendFootprintTtl' || t === 'restoreFootprint' ? t : undefined;
}

export function sorobanData(tx: xdr.Transaction): xdr.SorobanTransactionData | undefined {
  return tx.ext.type === 'sorobanData' ? tx.ext.sorobanData : undefined;
}

/** SorobanResourcesExtV0.archivedSorobanEntries: indices into the read-write footprint to restore. */
export function archivedIndices(data: xdr.SorobanTransactionData): number[] {
  return data.ext.type === 'resourceExt' ? data.ext.resourceExt.archivedSorobanEntries : [];
}

export function timeBounds(tx: xdr.Transaction): { minTime: number; maxTime: number } {
  const cond = tx.cond;
  const tb = cond.type === 'precondTime' ? cond.timeBounds : cond.type === 'precondV2' ? cond.v2.timeBounds : null;
  if (!tb) return { minTime: 0, maxTime: 0 };
  return { minTime: Number(tb.minTime), maxTime: Number(tb.maxTime) };
}

/** PreconditionsV2.ledgerBounds (protocol 19): maxLedger is exclusive, 0 = none. */
export function ledgerBounds(tx: xdr.Transaction): { minLedger: number; maxLedger: number } {
  const cond = tx.cond;
  const lb = cond.type === 'precondV2' ? cond.v2.ledgerBounds : null;
  return lb ? { minLedger: lb.minLedger, maxLedger: lb.maxLedger } : { minLedger: 0, maxLedger: 0 };
}
