// POST /subscriptions and GET /subscriptions/{id}: request and response shapes.
import { z } from 'zod';
import type { Subscription } from '../../billing/model.ts';
import { isoTimestamp, jsonBody, responseSchema, stellarAccount, toIso, uuidField } from './common.ts';

export const CreateSubscriptionBody = jsonBody({
  plan_id: uuidField('plan_id'),
  customer_wallet_address: stellarAccount,
});
export type CreateSubscriptionBody = z.infer<typeof CreateSubscriptionBody>;

// Exactly the spec's five fields; created_at / updated_at stay internal.
export const SubscriptionJson = z.strictObject({
  id: z.uuid(),
  plan_id: z.uuid(),
  customer_wallet_address: z.string(),
  status: z.enum(['active', 'past_due']),
  next_billing_date: isoTimestamp,
});
export type SubscriptionJson = z.infer<typeof SubscriptionJson>;

export const subscriptionJson = (s: Subscription): SubscriptionJson => ({
  id: s.id,
  plan_id: s.plan_id,
  customer_wallet_address: s.customer_wallet_address,
  status: s.status,
  next_billing_date: toIso(s.next_billing_date),
});

export const CreateSubscriptionResponse = z.strictObject({
  message: z.literal('Subscription created'),
  subscription: SubscriptionJson,
});
export const GetSubscriptionResponse = z.strictObject({ subscription: SubscriptionJson });
export type CreateSubscriptionResponse = z.infer<typeof CreateSubscriptionResponse>;
export type GetSubscriptionResponse = z.infer<typeof GetSubscriptionResponse>;

export const subscriptionResponses = {
  create: { 201: responseSchema(CreateSubscriptionResponse) },
  get: { 200: responseSchema(GetSubscriptionResponse) },
};
