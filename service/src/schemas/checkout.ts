// The hosted pages' keyless routes: POST /checkout/{plan_id}/subscriptions (product.md) and
// POST /subscriber/subscriptions (/manage).
import { z } from 'zod';
import type { WalletSubscription } from '../billing/subscribers/wallet-subscriptions-port.ts';
import { isoTimestamp, jsonBody, responseSchema, stellarAccount, toIso, uuidField } from './common.ts';
import { exactNumber, exactNumberSchema } from './exact-number.ts';

export const CheckoutParams = z.object({ plan_id: uuidField('plan_id parameter') });
export type CheckoutParams = z.infer<typeof CheckoutParams>;

export const CheckoutSubscriptionBody = jsonBody({ customer_wallet_address: stellarAccount });
export type CheckoutSubscriptionBody = z.infer<typeof CheckoutSubscriptionBody>;

/** POST /subscriber/subscriptions: the wallet, when the message was signed, and the signature. */
export const WalletSubscriptionsBody = jsonBody({
  wallet: stellarAccount,
  signed_at: z.string().meta({ description: 'The `at:` line of the signed message, exactly as signed' }),
  signature: z.string().meta({
    description:
      'base64 ed25519 signature (SEP-53, as Freighter signMessage makes) of "Show my subscriptions\\nwallet: <wallet>\\nat: <signed_at>"',
  }),
});
export type WalletSubscriptionsBody = z.infer<typeof WalletSubscriptionsBody>;

export const WalletSubscriptionJson = z.strictObject({
  id: z.uuid(),
  plan_id: z.uuid(),
  customer_wallet_address: z.string(),
  status: z.enum(['active', 'past_due', 'unpaid', 'paused', 'canceled']),
  next_billing_date: isoTimestamp,
  plan: z.strictObject({
    name: z.string(),
    token_amount: exactNumberSchema('Raw token units per cycle, exactly'),
    interval_seconds: z.number().int(),
    token_contract_id: z.string().nullable(),
  }),
  merchant: z.strictObject({ name: z.string(), wallet_address: z.string() }),
});
export const WalletSubscriptionsResponse = z.strictObject({ subscriptions: z.array(WalletSubscriptionJson) });

export const walletSubscriptionJson = (s: WalletSubscription) => ({
  id: s.id,
  plan_id: s.plan_id,
  customer_wallet_address: s.customer_wallet_address,
  status: s.status,
  next_billing_date: toIso(s.next_billing_date),
  plan: {
    name: s.plan_name,
    token_amount: exactNumber(s.token_amount),
    interval_seconds: s.interval_seconds,
    token_contract_id: s.token_contract_id,
  },
  merchant: { name: s.merchant_name, wallet_address: s.merchant_wallet_address },
});

export const walletSubscriptionsResponses = { 200: responseSchema(WalletSubscriptionsResponse) };
