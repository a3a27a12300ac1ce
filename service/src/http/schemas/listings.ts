// Query strings and answers of the listings. The cursor stays the raw text here: it is checked and
// decoded by the app's cursor codec (http/cursors.ts), whose secret is configuration.
import { z } from 'zod';
import type { ListOrder } from '../cursors.ts';
import { PlanJson } from './plans.ts';
import { responseSchema, uuidField, isoDateTime } from './common.ts';
import { SubscriptionJson } from './subscriptions.ts';

export type { ListOrder } from '../cursors.ts';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 500;

export const limit = z.coerce
  .number()
  .int(`limit must be an integer from 1 to ${MAX_LIMIT}`)
  .min(1, `limit must be an integer from 1 to ${MAX_LIMIT}`)
  .max(MAX_LIMIT, `limit must be an integer from 1 to ${MAX_LIMIT}`)
  .default(DEFAULT_LIMIT)
  .meta({ description: `Page size, default ${DEFAULT_LIMIT}.` });
export const cursor = z
  .string()
  .optional()
  .meta({ description: 'next_cursor of the previous page; omit for the first page.' });

/** The order a listing is read in: due_before sorts by next_billing_date, otherwise by created_at. */
function withOrder<T extends { limit: number; cursor?: string; due_before?: Date }>(q: T) {
  const order: ListOrder = q.due_before ? 'due' : 'created';
  return { ...q, order };
}

export const PlanListQuery = z.object({ limit, cursor }).transform(withOrder);
export type PlanListQuery = z.infer<typeof PlanListQuery>;

const subscriptionFilters = {
  status: z.enum(['active', 'past_due']).optional(),
  due_before: isoDateTime('due_before')
    .optional()
    .meta({
      description:
        'Only subscriptions whose next_billing_date is at or before this instant; ordered by next_billing_date.',
    }),
};

export const PlanSubscriptionsQuery = z.object({ limit, cursor, ...subscriptionFilters }).transform(withOrder);
export type PlanSubscriptionsQuery = z.infer<typeof PlanSubscriptionsQuery>;

export const MerchantSubscriptionsQuery = z
  .object({ limit, cursor, ...subscriptionFilters, plan_id: uuidField('plan_id').optional() })
  .transform(withOrder);
export type MerchantSubscriptionsQuery = z.infer<typeof MerchantSubscriptionsQuery>;

export const nextCursor = z
  .string()
  .nullable()
  .meta({ description: 'Pass as cursor for the next page; null on the last page.' });
export const PlanListResponse = z.strictObject({ plans: z.array(PlanJson), next_cursor: nextCursor });
export const SubscriptionListResponse = z.strictObject({
  subscriptions: z.array(SubscriptionJson),
  next_cursor: nextCursor,
});
export type PlanListResponse = z.infer<typeof PlanListResponse>;
export type SubscriptionListResponse = z.infer<typeof SubscriptionListResponse>;

export const listResponses = {
  plans: { 200: responseSchema(PlanListResponse) },
  subscriptions: { 200: responseSchema(SubscriptionListResponse) },
};
