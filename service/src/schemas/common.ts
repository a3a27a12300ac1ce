// Field rules shared by the request schemas, with the spec's reason texts (section 7). Where the
// spec has no text of its own (missing field, wrong type) Zod 4's own reason stands, e.g.
// "Invalid input: expected string, received undefined".
import { z } from 'zod';
import { atMost, decimalPlaces, I128_MAX, MAX_DECIMAL_PLACES, parseDecimal } from '../billing/amounts.ts';
import { MAX_INTERVAL_SECONDS } from '../billing/schedule.ts';
import { EXACT_MARK, forEachExact } from './exact-number.ts';
import { isAccountAddress, isContractAddress } from './stellar-address.ts';

// Any canonical 8-4-4-4-12 hex UUID, whatever its version bits: everything PostgreSQL's uuid type
// accepts in that form is "well-formed", so a well-formed id that matches nothing is 404, never 400.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const uuidField = (field: string) => z.string().regex(UUID, `${field} must be a valid UUID`);

/** Path parameters of GET/DELETE /<resource>/{id}. */
export const IdParams = z.object({ id: z.string().regex(UUID, 'id parameter must be a valid UUID') });
export type IdParams = z.infer<typeof IdParams>;

export const nonBlank = (field: string) => z.string().refine((s) => s.trim() !== '', `${field} cannot be empty`);

export const stellarAccount = z.string().refine(isAccountAddress, 'must be a valid Stellar Ed25519 public address');

// Numeric strings are accepted (spec); anything else that is a string becomes NaN, so Zod reports
// "expected number, received NaN". Blank, hex and "Infinity" are not numeric here, unlike Number().
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const asNumber = (v: unknown) => (typeof v === 'string' ? (DECIMAL.test(v.trim()) ? Number(v) : NaN) : v);

const positiveAmount = z.number().gt(0, 'token_amount must be greater than 0');

/**
 * token_amount: checked as a number, kept as decimal text so "12345678901234567890.1234567"
 * reaches `numeric` exactly instead of through a float. Bounded so that every stored amount is
 * one the token can count (i128) with the token's 7 decimals: anything else would reach
 * PostgreSQL as an overflow (500) or be a plan no pull can ever collect.
 */
export const tokenAmount = z
  .unknown()
  .transform((raw, ctx) => {
    // A decimal string is judged on its digits alone: through Number(), "1e-100000" would read as 0
    // and "1e100000" as Infinity. Anything else gets Zod's own reasons (NaN, wrong type, ≤ 0).
    const text = typeof raw === 'string' ? raw.trim() : String(raw);
    const d = typeof raw === 'string' || typeof raw === 'number' ? parseDecimal(text) : undefined;
    if (!d || typeof raw !== 'string' || !DECIMAL.test(text) || d.negative || d.digits === '') {
      const checked = positiveAmount.safeParse(asNumber(raw));
      if (!checked.success) {
        for (const issue of checked.error.issues) ctx.addIssue({ ...issue, path: [] } as never);
        return z.NEVER;
      }
    }
    const reason =
      !d || !atMost(d, I128_MAX)
        ? `token_amount must be at most ${I128_MAX} (the largest i128)`
        : decimalPlaces(d) > MAX_DECIMAL_PLACES
          ? `token_amount must have at most ${MAX_DECIMAL_PLACES} decimal places`
          : undefined;
    if (reason) {
      ctx.addIssue({ code: 'custom', message: reason, path: [] });
      return z.NEVER;
    }
    return text;
  })
  .meta({
    // The transform has no JSON Schema of its own; the OpenAPI document shows what it accepts.
    description: `Raw token units, greater than 0, at most ${I128_MAX} with at most ${MAX_DECIMAL_PLACES} decimal places: a JSON number or a decimal string (stored exactly). Send numbers above 2^53 as strings.`,
    anyOf: [{ type: 'number' }, { type: 'string' }],
    examples: ['100000000', 7.25],
  });

/** A contract address (C…), checksum included. */
export const stellarContract = z.string().refine(isContractAddress, 'must be a valid Stellar contract address (C…)');

/**
 * interval_seconds: a whole number of seconds > 0, at most MAX_INTERVAL_SECONDS (10,000 years):
 * the one rule, so that every stored plan can be scheduled after a confirmed pull.
 */
export const intervalSeconds = z.preprocess(
  asNumber,
  z
    .number()
    .int()
    .gt(0, 'interval_seconds must be a positive integer')
    .max(MAX_INTERVAL_SECONDS, `interval_seconds must be at most ${MAX_INTERVAL_SECONDS} (10,000 years)`),
);

/**
 * A JSON body as an object. A request without a body (Fastify gives null or undefined) reads as
 * `{}`, so the answer names the first missing field rather than the absent body.
 */
export const jsonBody = <S extends z.ZodRawShape>(shape: S) => z.preprocess((v) => v ?? {}, z.object(shape));

/** An action that takes no body (pause, resume, archive): none or `{}`. */
export const NoBody = z.preprocess((v) => v ?? {}, z.strictObject({}));

/**
 * Response schemas are Zod too (tests parse bodies with them); Fastify serializes from their JSON
 * Schema, in which exact amounts lose their `type` (exact-number.ts explains why).
 */
export function responseSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { target: 'draft-7', io: 'output' }) as Record<
    string,
    unknown
  >;
  forEachExact(json, (node) => delete node.type);
  return json;
}

export { EXACT_MARK };

/** The date part names a day that exists (no 30 February) in years 1 to 9999, as an instant too. */
function realDate(text: string): boolean {
  const [y, m, d] = text.slice(0, 10).split('-').map(Number);
  const daysInMonth = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const instant = new Date(text).getUTCFullYear();
  return y >= 1 && m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth && instant >= 1 && instant <= 9999;
}

/**
 * An ISO 8601 date-time with offset that names a real instant. JavaScript's Date rolls
 * 2030-02-30 over into March and PostgreSQL refuses year 0, so both are refused here with a 400
 * instead of reaching the query.
 */
export const isoDateTime = (field: string) =>
  z.iso
    .datetime({ offset: true, error: `${field} must be an ISO 8601 date-time` })
    .refine(realDate, `${field} must be a date and time that exist (years 1 to 9999)`)
    .transform((s) => new Date(s));

export const isoTimestamp = z.iso.datetime();
export const toIso = (d: Date) => d.toISOString();
