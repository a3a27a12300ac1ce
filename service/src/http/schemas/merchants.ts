// POST /merchants, GET /merchants/{id}, DELETE /merchants/{id}: request and response shapes.
import { z } from 'zod';
import type { Merchant } from '../../billing/model.ts';
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

export const CreateMerchantResponse = z.strictObject({ message: z.literal('Merchant created'), merchant: MerchantJson });
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
  get: { 200: responseSchema(GetMerchantResponse) },
  delete: { 200: responseSchema(DeleteMerchantResponse) },
};
