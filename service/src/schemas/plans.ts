// POST /plans and GET /plans/{id}: request and response shapes. Field order in CreatePlanBody is
// the spec's order, and it decides which field a 400 names when several are wrong.
import { z } from 'zod';
import type { Plan, PlanWithMerchant } from '../billing/model.ts';
import {
  intervalSeconds,
  isoTimestamp,
  jsonBody,
  nonBlank,
  responseSchema,
  stellarContract,
  tokenAmount,
  toIso,
  uuidField,
} from './common.ts';
import { exactNumber, exactNumberSchema, type ExactNumber } from './exact-number.ts';
import { FINAL_STATUSES } from '../billing/subscriptions/status-machine.ts';

/** At most 20 retries, each 1 s to 1 year after the previous failed try. */
const retrySchedule = z
  .array(
    z
      .number()
      .int()
      .min(1, 'each retry delay must be at least 1 second')
      .max(31_536_000, 'each retry delay must be at most 31536000 seconds'),
  )
  .max(20, 'at most 20 retries');

export const CreatePlanBody = jsonBody({
  merchant_id: uuidField('merchant_id'),
  name: nonBlank('name'),
  token_amount: tokenAmount,
  interval_seconds: intervalSeconds,
  // product.md: optional; DEFAULT_TOKEN_CONTRACT_ID applies when omitted.
  token_contract_id: stellarContract.optional(),
  // product.md: dunning, optional; omitted = the defaults in force at creation, stored on the plan.
  retry_schedule_seconds: retrySchedule.optional(),
  final_status: z
    .enum(FINAL_STATUSES, { error: `final_status must be one of ${FINAL_STATUSES.join(', ')}` })
    .optional(),
});
export type CreatePlanBody = z.infer<typeof CreatePlanBody>;

export const PlanJson = z.strictObject({
  id: z.uuid(),
  merchant_id: z.uuid(),
  name: z.string(),
  token_amount: exactNumberSchema(
    'Raw token units, exactly as stored: a JSON number, written with all its digits when a double cannot hold it',
  ),
  interval_seconds: z.number().int(),
  /** The token the price is in (C…); null when the plan names none. */
  token_contract_id: z.string().nullable(),
  /** Dunning: retry k comes this many seconds after failed try k. */
  retry_schedule_seconds: z.array(z.number().int()),
  /** The status after the last try of a cycle fails. */
  final_status: z.enum(FINAL_STATUSES),
  /** Archived plans take no new subscriptions; existing ones go on. */
  archived_at: isoTimestamp.nullable(),
  created_at: isoTimestamp,
});
export type PlanJson = z.infer<typeof PlanJson>;
/** A plan on its way out: the amount may be an exact literal (exact-number.ts). */
export type PlanBody = Omit<PlanJson, 'token_amount'> & { token_amount: ExactNumber };

export const planJson = (p: Plan): PlanBody => ({
  id: p.id,
  merchant_id: p.merchant_id,
  name: p.name,
  // The JSON number the spec asks for, with every digit the database holds.
  token_amount: exactNumber(p.token_amount),
  interval_seconds: p.interval_seconds,
  token_contract_id: p.token_contract_id,
  retry_schedule_seconds: p.retry_schedule_seconds,
  final_status: p.final_status,
  archived_at: p.archived_at ? toIso(p.archived_at) : null,
  created_at: toIso(p.created_at),
});

export const CreatePlanResponse = z.strictObject({ message: z.literal('Plan created successfully'), plan: PlanJson });
export type CreatePlanResponse = z.infer<typeof CreatePlanResponse>;

// product.md: the checkout needs the merchant's wallet to create the subscriber's vault.
export const GetPlanResponse = z.strictObject({
  plan: PlanJson.extend({
    merchant: z.strictObject({ id: z.uuid(), name: z.string(), wallet_address: z.string() }),
  }),
});
export type GetPlanResponse = z.infer<typeof GetPlanResponse>;

export const planWithMerchantJson = (
  p: PlanWithMerchant,
): PlanBody & { merchant: GetPlanResponse['plan']['merchant'] } => ({
  ...planJson(p),
  merchant: { id: p.merchant.id, name: p.merchant.name, wallet_address: p.merchant.wallet_address },
});

export const planResponses = {
  create: { 201: responseSchema(CreatePlanResponse) },
  get: { 200: responseSchema(GetPlanResponse) },
  archive: { 200: responseSchema(z.strictObject({ plan: PlanJson })) },
};
