// Query strings and answers of the listings. The cursor is opaque to clients: base64url of
// [order, sort timestamp, id] of the last row served. The order tag ties a cursor to the order it
// was cut from, so a created_at cursor cannot be replayed against a due_before listing.
import { z } from 'zod';
import type { PageKey } from '../../billing/ports.ts';
import { PlanJson } from './plans.ts';
import { responseSchema, uuidField } from './common.ts';
import { SubscriptionJson } from './subscriptions.ts';

export type ListOrder = 'created' | 'due';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 500;

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const encodeCursor = (order: ListOrder, key: PageKey): string =>
  Buffer.from(JSON.stringify([order, key.at, key.id])).toString('base64url');

export function decodeCursor(raw: string, order: ListOrder): PageKey | undefined {
  try {
    const v: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    if (!Array.isArray(v) || v.length !== 3 || v[0] !== order) return undefined;
    const [, at, id] = v as unknown[];
    if (typeof at !== 'string' || !TIMESTAMP.test(at) || typeof id !== 'string' || !UUID.test(id)) return undefined;
    return { at, id };
  } catch {
    return undefined;
  }
}

const limit = z.coerce
  .number()
  .int(`limit must be an integer from 1 to ${MAX_LIMIT}`)
  .min(1, `limit must be an integer from 1 to ${MAX_LIMIT}`)
  .max(MAX_LIMIT, `limit must be an integer from 1 to ${MAX_LIMIT}`)
  .default(DEFAULT_LIMIT)
  .meta({ description: `Page size, default ${DEFAULT_LIMIT}.` });
const cursor = z.string().optional().meta({ description: 'next_cursor of the previous page; omit for the first page.' });

/** Turns the raw cursor into a page position, or an issue on `cursor` (answered 400). */
function withPage<T extends { limit: number; cursor?: string; due_before?: Date }>(q: T, ctx: z.RefinementCtx) {
  const order: ListOrder = q.due_before ? 'due' : 'created';
  const after = q.cursor === undefined ? undefined : decodeCursor(q.cursor, order);
  if (q.cursor !== undefined && !after) {
    ctx.addIssue({ code: 'custom', path: ['cursor'], message: 'cursor is not a next_cursor of this listing' });
    return z.NEVER;
  }
  return { ...q, order, page: { limit: q.limit, after } };
}

export const PlanListQuery = z.object({ limit, cursor }).transform(withPage);
export type PlanListQuery = z.infer<typeof PlanListQuery>;

const subscriptionFilters = {
  status: z.enum(['active', 'past_due']).optional(),
  due_before: z.iso
    .datetime({ offset: true, error: 'due_before must be an ISO 8601 date-time' })
    .transform((s) => new Date(s))
    .optional()
    .meta({ description: 'Only subscriptions whose next_billing_date is at or before this instant; ordered by next_billing_date.' }),
};

export const PlanSubscriptionsQuery = z.object({ limit, cursor, ...subscriptionFilters }).transform(withPage);
export type PlanSubscriptionsQuery = z.infer<typeof PlanSubscriptionsQuery>;

export const MerchantSubscriptionsQuery = z
  .object({ limit, cursor, ...subscriptionFilters, plan_id: uuidField('plan_id').optional() })
  .transform(withPage);
export type MerchantSubscriptionsQuery = z.infer<typeof MerchantSubscriptionsQuery>;

const nextCursor = z.string().nullable().meta({ description: 'Pass as cursor for the next page; null on the last page.' });
export const PlanListResponse = z.strictObject({ plans: z.array(PlanJson), next_cursor: nextCursor });
export const SubscriptionListResponse = z.strictObject({ subscriptions: z.array(SubscriptionJson), next_cursor: nextCursor });
export type PlanListResponse = z.infer<typeof PlanListResponse>;
export type SubscriptionListResponse = z.infer<typeof SubscriptionListResponse>;

export const listResponses = {
  plans: { 200: responseSchema(PlanListResponse) },
  subscriptions: { 200: responseSchema(SubscriptionListResponse) },
};
