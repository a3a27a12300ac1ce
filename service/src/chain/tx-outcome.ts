// Reads a getTransaction answer without decoding more than the service needs. The raw answer is
// used (rpc.Server._getTransaction) rather than the SDK's parsed one, which decodes the envelope
// and the whole meta: a meta arm newer than this SDK (the next protocol's) would then fail a
// confirmation that only needs the status, the fee and one event.
import { FeeBumpTransaction, TransactionBuilder, xdr, type rpc } from '@stellar/stellar-sdk';
import type { TxObservation } from '../billing/pulls/vault-gateway.ts';
import { findTransfer } from './transfer-event.ts';

function contractEvents(raw: rpc.Api.RawGetTransactionResponse): xdr.ContractEvent[] {
  const perOperation = raw.events?.contractEventsXdr;
  if (perOperation) return perOperation.flat().map((e) => xdr.ContractEvent.fromXdr(e, 'base64'));
  // RPC before v23 has no `events`: the events are in the meta (v3 sorobanMeta, v4 per operation).
  if (!raw.resultMetaXdr) return [];
  const meta = xdr.TransactionMeta.fromXdr(raw.resultMetaXdr, 'base64');
  if (meta.type === 'v4') return meta.v4.operations.flatMap((op) => op.events);
  if (meta.type === 'v3') return meta.v3.sorobanMeta?.events ?? [];
  return [];
}

function innerHash(raw: rpc.Api.RawGetTransactionResponse, passphrase: string): string | undefined {
  if (!raw.feeBump || !raw.envelopeXdr) return undefined;
  const tx = TransactionBuilder.fromXDR(raw.envelopeXdr, passphrase);
  return tx instanceof FeeBumpTransaction ? Buffer.from(tx.innerTransaction.hash()).toString('hex') : undefined;
}

export function toObservation(
  raw: rpc.Api.RawGetTransactionResponse,
  pull: { user: string; merchant: string } | undefined,
  passphrase: string,
): TxObservation {
  const base = {
    latestLedger: raw.latestLedger,
    latestLedgerCloseTime: Number(raw.latestLedgerCloseTime),
    oldestLedger: raw.oldestLedger,
  };
  if (raw.status === 'NOT_FOUND') return { status: 'NOT_FOUND', ...base };
  const status = raw.status === 'SUCCESS' ? 'SUCCESS' : 'FAILED';
  const feeCharged = raw.resultXdr
    ? xdr.TransactionResult.fromXdr(raw.resultXdr, 'base64').feeCharged.toString()
    : undefined;
  const transfer =
    status === 'SUCCESS' && pull ? findTransfer(contractEvents(raw), pull.user, pull.merchant) : undefined;
  return { status, ledger: raw.ledger, ...base, feeCharged, transfer, innerTxHash: innerHash(raw, passphrase) };
}
