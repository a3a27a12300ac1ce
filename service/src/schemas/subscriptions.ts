// POST /subscriptions and GET /subscriptions/{id}: request and response shapes.
import { z } from 'zod';
import { HEALTH_STATUSES, type Subscription, type SubscriptionListItem } from '../billing/model.ts';
import { STATUSES } from '../billing/subscriptions/status-machine.ts';
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
  status: z.enum(STATUSES),
  next_billing_date: isoTimestamp,
});
export type SubscriptionJson = z.infer<typeof SubscriptionJson>;

/** What GET /subscriptions/{id} and the cancel/pause/resume answers show beyond the spec's five fields. */
export const SubscriptionDetailJson = SubscriptionJson.extend({
  /** Set by a cancel at period end: the subscription is canceled at this instant. */
  cancel_at: isoTimestamp.optional(),
  canceled_at: isoTimestamp.optional(),
  health: z.strictObject({
    status: z.enum(HEALTH_STATUSES),
    checked_at: isoTimestamp.nullable(),
    detail: z.string().optional(),
  }),
});
export type SubscriptionDetailJson = z.infer<typeof SubscriptionDetailJson>;

export const subscriptionDetailJson = (s: Subscription): SubscriptionDetailJson => ({
  ...subscriptionJson(s),
  ...(s.cancel_at ? { cancel_at: toIso(s.cancel_at) } : {}),
  ...(s.canceled_at ? { canceled_at: toIso(s.canceled_at) } : {}),
  health: {
    status: s.health_status,
    checked_at: s.health_checked_at ? toIso(s.health_checked_at) : null,
    ...(s.health_detail ? { detail: s.health_detail } : {}),
  },
});

export const subscriptionJson = (s: SubscriptionListItem): SubscriptionJson => ({
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
export const GetSubscriptionResponse = z.strictObject({ subscription: SubscriptionDetailJson });
export type CreateSubscriptionResponse = z.infer<typeof CreateSubscriptionResponse>;
export type GetSubscriptionResponse = z.infer<typeof GetSubscriptionResponse>;

/** POST /subscriptions/{id}/cancel: cancel now (default) or at the end of the period paid for. */
export const CancelSubscriptionBody = z.preprocess((v) => v ?? {}, z.object({ at_period_end: z.boolean().optional() }));
export type CancelSubscriptionBody = z.infer<typeof CancelSubscriptionBody>;

export const subscriptionResponses = {
  create: { 201: responseSchema(CreateSubscriptionResponse) },
  get: { 200: responseSchema(GetSubscriptionResponse) },
};
