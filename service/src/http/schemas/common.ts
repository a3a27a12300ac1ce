// Field rules shared by the request schemas, with the spec's reason texts (section 7). Where the
// spec has no text of its own (missing field, wrong type) Zod 4's own reason stands, e.g.
// "Invalid input: expected string, received undefined".
//
// @stellar/stellar-sdk is imported here for StrKey only: it owns the G... checksum rule, and
// re-implementing base32 + CRC16 at the edge would be a second, untested copy of it. Nothing
// else of the SDK is used outside chain/.
import { StrKey } from '@stellar/stellar-sdk';
import { z } from 'zod';

// Any canonical 8-4-4-4-12 hex UUID, whatever its version bits: everything PostgreSQL's uuid type
// accepts in that form is "well-formed", so a well-formed id that matches nothing is 404, never 400.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const uuidField = (field: string) => z.string().regex(UUID, `${field} must be a valid UUID`);

/** Path parameters of GET/DELETE /<resource>/{id}. */
export const IdParams = z.object({ id: z.string().regex(UUID, 'id parameter must be a valid UUID') });
export type IdParams = z.infer<typeof IdParams>;

export const nonBlank = (field: string) => z.string().refine((s) => s.trim() !== '', `${field} cannot be empty`);

export const stellarAccount = z
  .string()
  .refine((s) => StrKey.isValidEd25519PublicKey(s), 'must be a valid Stellar Ed25519 public address');

// Numeric strings are accepted (spec); anything else that is a string becomes NaN, so Zod reports
// "expected number, received NaN". Blank, hex and "Infinity" are not numeric here, unlike Number().
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const asNumber = (v: unknown) => (typeof v === 'string' ? (DECIMAL.test(v.trim()) ? Number(v) : NaN) : v);

const positiveAmount = z.number().gt(0, 'token_amount must be greater than 0');

/**
 * token_amount: checked as a number, kept as decimal text so "12345678901234567890.1234567"
 * reaches `numeric` exactly instead of through a float.
 */
export const tokenAmount = z.unknown().transform((raw, ctx) => {
  const checked = positiveAmount.safeParse(asNumber(raw));
  if (!checked.success) {
    for (const issue of checked.error.issues) ctx.addIssue({ ...issue, path: [] } as never);
    return z.NEVER;
  }
  return typeof raw === 'string' ? raw.trim() : String(raw);
}).meta({
  // The transform has no JSON Schema of its own; the OpenAPI document shows what it accepts.
  description: 'Raw token units, greater than 0: a JSON number or a decimal string (stored exactly)',
  anyOf: [{ type: 'number' }, { type: 'string' }],
  examples: ['100000000', 7.25],
});

/** A contract address (C…), checksum included. */
export const stellarContract = z
  .string()
  .refine((s) => StrKey.isValidContract(s), 'must be a valid Stellar contract address (C…)');

/** interval_seconds: a whole number of seconds > 0, at most Number.MAX_SAFE_INTEGER. */
export const intervalSeconds = z.preprocess(
  asNumber,
  z.number().int().gt(0, 'interval_seconds must be a positive integer'),
);

/**
 * A JSON body as an object. A request without a body (Fastify gives null or undefined) reads as
 * `{}`, so the answer names the first missing field rather than the absent body.
 */
export const jsonBody = <S extends z.ZodRawShape>(shape: S) => z.preprocess((v) => v ?? {}, z.object(shape));

/** Response schemas are Zod too (tests parse bodies with them); Fastify serializes from their JSON Schema. */
export function responseSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { target: 'draft-7', io: 'output' }) as Record<string, unknown>;
  return json;
}

export const isoTimestamp = z.iso.datetime();
export const toIso = (d: Date) => d.toISOString();
