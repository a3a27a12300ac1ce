// POST/GET /merchants/{id}/api-keys and DELETE /merchants/{id}/api-keys/{key_id} (product.md's
// wire format): a key object never holds the key, which appears once, as `api_key`, on creation.
import { z } from 'zod';
import type { ApiKey } from '../billing/model.ts';
import { isoTimestamp, jsonBody, responseSchema, toIso } from './common.ts';
import { MerchantJson } from './merchants.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const KeyParams = z.object({
  id: z.string().regex(UUID, 'id parameter must be a valid UUID'),
  key_id: z.string().regex(UUID, 'key_id parameter must be a valid UUID'),
});
export type KeyParams = z.infer<typeof KeyParams>;

export const CreateApiKeyBody = jsonBody({
  label: z
    .string()
    .refine((s) => s.trim() !== '', 'label cannot be empty')
    .refine((s) => s.length <= 100, 'label must be at most 100 characters')
    .optional()
    .meta({ description: 'What the key is for, e.g. "billing cron"; shown in the list' }),
});
export type CreateApiKeyBody = z.infer<typeof CreateApiKeyBody>;

export const ApiKeyJson = z.strictObject({
  id: z.uuid(),
  prefix: z.string().meta({ description: "The key's first characters, to recognise it" }),
  label: z.string().nullable(),
  created_at: isoTimestamp,
  last_used_at: isoTimestamp
    .nullable()
    .meta({ description: 'Updated at most every 30 s per replica; may lag real use by up to a minute' }),
});
export type ApiKeyJson = z.infer<typeof ApiKeyJson>;

export const apiKeyJson = (k: ApiKey): ApiKeyJson => ({
  id: k.id,
  prefix: k.prefix,
  label: k.label,
  created_at: toIso(k.created_at),
  last_used_at: k.last_used_at ? toIso(k.last_used_at) : null,
});

export const CreateApiKeyResponse = z.strictObject({
  api_key: z.string().meta({ description: 'The key: shown once, never again (only its hash is stored)' }),
  key: ApiKeyJson,
});
export const ListApiKeysResponse = z.strictObject({ keys: z.array(ApiKeyJson) });
export const RevokeApiKeyResponse = z.strictObject({
  message: z.literal('API key revoked'),
  key: ApiKeyJson.extend({ revoked_at: isoTimestamp }),
});
export type CreateApiKeyResponse = z.infer<typeof CreateApiKeyResponse>;
export type ListApiKeysResponse = z.infer<typeof ListApiKeysResponse>;
export type RevokeApiKeyResponse = z.infer<typeof RevokeApiKeyResponse>;

export const CurrentKeyResponse = z.strictObject({
  actor: z.enum(['merchant', 'operator']),
  merchant: MerchantJson.nullable(),
  key_id: z.uuid().nullable(),
});

export const apiKeyResponses = {
  current: { 200: responseSchema(CurrentKeyResponse) },
  create: { 201: responseSchema(CreateApiKeyResponse) },
  list: { 200: responseSchema(ListApiKeysResponse) },
  revoke: { 200: responseSchema(RevokeApiKeyResponse) },
};
