// POST /trigger-pull and GET /subscriptions/{id}/pulls: request and response shapes.
import { z } from 'zod';
import type { PullRecord } from '../billing/pulls/pulls-port.ts';
import { isoTimestamp, jsonBody, responseSchema, toIso, uuidField } from './common.ts';
import { exactNumber, exactNumberSchema, type ExactNumber } from './exact-number.ts';

// An empty or blank merchant_secret gets the spec's "merchant_secret is required". A missing one is
// allowed here only because a caller with an API key may sign with the merchant's stored key; the
// verb answers a keyless request without it with Zod's generic reason, as for any missing field.
// Whether the text is a valid secret key is checked later, in the spec's order, by the verb.
export const TriggerPullBody = jsonBody({
  subscription_id: uuidField('subscription_id'),
  merchant_secret: z
    .string()
    .refine((s) => s.trim() !== '', 'merchant_secret is required')
    .optional()
    .meta({
      description:
        "The plan owner's secret seed (S…). Required without an API key; with one, omit it to sign with the merchant's stored signing key.",
    }),
});
export type TriggerPullBody = z.infer<typeof TriggerPullBody>;

export const PullConfirmedResponse = z.strictObject({
  message: z.literal('Successfully pulled funds on-chain!'),
  txHash: z.string(),
});
export const PullPendingResponse = z.strictObject({
  message: z.literal('Transaction submitted but not yet confirmed'),
  txHash: z.string(),
});
export const PullFailedResponse = z.strictObject({
  error: z.literal('Transaction failed on-chain'),
  txHash: z.string(),
});

export const PullJson = z.strictObject({
  id: z.uuid(),
  subscription_id: z.uuid(),
  amount: exactNumberSchema('What the plan asked, in raw token units, exactly'),
  /** null for a try of the collector that sent nothing (`skipped`). */
  tx_hash: z.string().nullable(),
  status: z.enum(['pending', 'confirmed', 'failed', 'expired', 'rejected', 'skipped']),
  /** Who tried: a caller of /trigger-pull, or the collector. */
  origin: z.enum(['manual', 'collector']),
  /** The cause's code for a refused or skipped try. */
  code: z.string().nullable(),
  ledger: z.number().int().nullable(),
  error: z.string().nullable(),
  transferred_amount: exactNumberSchema(
    "What the token's transfer event says moved, raw units, exactly; null until confirmed",
  ).nullable(),
  token_contract_id: z.string().nullable(),
  /** Fee charged to the fee source, stroops. */
  fee_charged: z.number().int().nullable(),
  /** For a fee-bump envelope, the inner transaction's hash (tx_hash is the one RPC calls use). */
  inner_tx_hash: z.string().nullable(),
  /** Set when a confirmation differs from the plan (amount, token, or no transfer seen). */
  discrepancy: z.string().nullable(),
  created_at: isoTimestamp,
  resolved_at: isoTimestamp.nullable(),
});
export type PullJson = z.infer<typeof PullJson>;
export const PullHistoryResponse = z.strictObject({ pulls: z.array(PullJson) });

export const pullJson = (
  p: PullRecord,
): Omit<PullJson, 'amount' | 'transferred_amount'> & {
  amount: ExactNumber;
  transferred_amount: ExactNumber | null;
} => ({
  id: p.id,
  subscription_id: p.subscription_id,
  amount: exactNumber(p.amount),
  tx_hash: p.tx_hash,
  status: p.status,
  ledger: p.ledger,
  error: p.error,
  origin: p.origin,
  code: p.code,
  transferred_amount: p.transferred_amount === null ? null : exactNumber(p.transferred_amount),
  token_contract_id: p.token_contract_id,
  fee_charged: p.fee_charged === null ? null : Number(p.fee_charged),
  inner_tx_hash: p.inner_tx_hash,
  discrepancy: p.discrepancy,
  created_at: toIso(p.created_at),
  resolved_at: p.resolved_at ? toIso(p.resolved_at) : null,
});

export const pullResponses = {
  trigger: {
    200: responseSchema(PullConfirmedResponse),
    202: responseSchema(PullPendingResponse),
    502: responseSchema(PullFailedResponse),
  },
  history: { 200: responseSchema(PullHistoryResponse) },
};

// Client-side signing (product.md's "Decisions for what comes next").
export const SubmitPullBody = jsonBody({
  signature: z
    .string()
    .regex(/^[A-Za-z0-9+/]{85}[AQgw]==$/, 'signature must be the base64 of a 64-byte ed25519 signature')
    .meta({ description: "base64 of the merchant wallet's ed25519 signature of the 32 bytes `hash` names" }),
});
export type SubmitPullBody = z.infer<typeof SubmitPullBody>;

export const PreparedPullResponse = z.strictObject({
  pull: z.strictObject({ id: z.uuid(), status: z.literal('prepared'), expires_at: isoTimestamp }),
  preimage_xdr: z.string().meta({ description: 'base64 XDR HashIdPreimage of the merchant’s authorisation entry' }),
  hash: z.string().meta({ description: 'hex SHA-256 of the preimage: what the merchant signs' }),
  signature_expiration_ledger: z.number().int(),
});

export const preparedResponses = { prepare: { 201: responseSchema(PreparedPullResponse) } };
