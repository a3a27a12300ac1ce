// GET /merchants/{id}/pulls and GET /merchants/{id}/pulls/daily-totals: query strings and answers.
import { z } from 'zod';
import type { DailyTotal } from '../billing/pulls/merchant-pulls-port.ts';
import type { ListOrder } from './cursors.ts';
import { isoDateTime, isoTimestamp, responseSchema } from './common.ts';
import { exactNumber, exactNumberSchema } from './exact-number.ts';
import { cursor, limit, nextCursor } from './listings.ts';
import { PullJson } from './pulls.ts';

const PULL_STATUSES = ['pending', 'confirmed', 'failed', 'expired', 'rejected', 'skipped'] as const;

const from = isoDateTime('from').optional().meta({ description: 'Only pulls created at or after this instant.' });
const to = isoDateTime('to').optional().meta({ description: 'Only pulls created before this instant.' });

export const MerchantPullsQuery = z
  .object({
    limit,
    cursor,
    from,
    to,
    status: z.enum(PULL_STATUSES).optional(),
  })
  .transform((q) => ({ ...q, order: 'created' as ListOrder }));
export type MerchantPullsQuery = z.infer<typeof MerchantPullsQuery>;

export const DailyTotalsQuery = z.object({
  from: isoDateTime('from').optional().meta({ description: 'Start of the window (default: 30 days before `to`).' }),
  to: isoDateTime('to')
    .optional()
    .meta({ description: 'End of the window, exclusive (default: now). At most 366 days.' }),
});
export type DailyTotalsQuery = z.infer<typeof DailyTotalsQuery>;

export const MerchantPullsResponse = z.strictObject({ pulls: z.array(PullJson), next_cursor: nextCursor });

export const DailyTotalJson = z.strictObject({
  /** UTC day, YYYY-MM-DD. */
  date: z.string(),
  token_contract_id: z.string().nullable(),
  amount: exactNumberSchema('Sum of what the confirmed pulls of the day moved, raw token units, exactly'),
  pulls: z.number().int(),
});
export const DailyTotalsResponse = z.strictObject({
  from: isoTimestamp,
  to: isoTimestamp,
  days: z.array(DailyTotalJson),
});

export const dailyTotalJson = (d: DailyTotal) => ({
  date: d.day,
  token_contract_id: d.token_contract_id,
  amount: exactNumber(d.amount),
  pulls: d.pulls,
});

export const merchantPullsResponses = {
  list: { 200: responseSchema(MerchantPullsResponse) },
  dailyTotals: { 200: responseSchema(DailyTotalsResponse) },
};
