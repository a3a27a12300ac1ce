// POST /merchants, GET /merchants, GET /merchants/{id}, DELETE /merchants/{id}: request and response shapes.
import { z } from 'zod';
import type { Merchant } from '../billing/model.ts';
import { isoTimestamp, jsonBody, nonBlank, responseSchema, stellarAccount, toIso } from './common.ts';

export const CreateMerchantBody = jsonBody({
  name: nonBlank('name'),
  wallet_address: stellarAccount,
});
export type CreateMerchantBody = z.infer<typeof CreateMerchantBody>;

export const MerchantJson = z.strictObject({
  id: z.uuid(),
  name: z.string(),
  wallet_address: z.string(),
  created_at: isoTimestamp,
});
export type MerchantJson = z.infer<typeof MerchantJson>;

export const merchantJson = (m: Merchant): MerchantJson => ({
  id: m.id,
  name: m.name,
  wallet_address: m.wallet_address,
  created_at: toIso(m.created_at),
});

export const CreateMerchantResponse = z.strictObject({
  message: z.literal('Merchant created'),
  merchant: MerchantJson,
  api_key: z
    .string()
    .meta({ description: "The merchant's first API key: shown once, never again (only its hash is stored)" }),
});
export const MerchantListResponse = z.strictObject({
  merchants: z.array(MerchantJson),
  next_cursor: z.string().nullable().meta({ description: 'Pass as cursor for the next page; null on the last page.' }),
});
export type MerchantListResponse = z.infer<typeof MerchantListResponse>;
export const GetMerchantResponse = z.strictObject({ merchant: MerchantJson });
export const DeleteMerchantResponse = z.strictObject({
  message: z.literal('Merchant deleted'),
  merchant: MerchantJson.extend({ deleted_at: isoTimestamp }),
});
export type CreateMerchantResponse = z.infer<typeof CreateMerchantResponse>;
export type GetMerchantResponse = z.infer<typeof GetMerchantResponse>;
export type DeleteMerchantResponse = z.infer<typeof DeleteMerchantResponse>;

export const merchantResponses = {
  create: { 201: responseSchema(CreateMerchantResponse) },
  list: { 200: responseSchema(MerchantListResponse) },
  get: { 200: responseSchema(GetMerchantResponse) },
  delete: { 200: responseSchema(DeleteMerchantResponse) },
};
