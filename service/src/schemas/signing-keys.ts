// PUT and DELETE /merchants/{id}/signing-key (product.md): the secret goes in, only its public
// key ever comes out.
import { z } from 'zod';
import type { StoredSigningKey } from '../billing/model.ts';
import { isoTimestamp, jsonBody, responseSchema, toIso } from './common.ts';

export const SetSigningKeyBody = jsonBody({
  secret: z
    .string()
    .refine((s) => s.trim() !== '', 'secret is required')
    .meta({ description: "The secret seed (S…) of the merchant's wallet; stored encrypted, never returned" }),
});
export type SetSigningKeyBody = z.infer<typeof SetSigningKeyBody>;

export const SigningKeyResponse = z.strictObject({
  signing_key: z.strictObject({ public_key: z.string(), created_at: isoTimestamp }),
});
export const RemoveSigningKeyResponse = z.strictObject({ message: z.literal('Signing key removed') });
export type SigningKeyResponse = z.infer<typeof SigningKeyResponse>;

export const signingKeyJson = (k: StoredSigningKey): SigningKeyResponse['signing_key'] => ({
  public_key: k.public_key,
  created_at: toIso(k.created_at),
});

export const signingKeyResponses = {
  put: { 200: responseSchema(SigningKeyResponse) },
  delete: { 200: responseSchema(RemoveSigningKeyResponse) },
};
