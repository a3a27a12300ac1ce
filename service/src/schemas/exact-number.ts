// Amounts in answers, exact: token_amount stays a JSON number (the spec says number), and when a
// double cannot hold it the answer carries its exact decimal literal instead (JSON allows any
// number of digits; Node 24's JSON.rawJSON writes it verbatim). Never a rounded figure.
//
// Fastify serializes answers with fast-json-stringify, which coerces anything typed `number`
// through Number() and would round it again. So an exact field is marked in its schema, and
// responseSchema (common.ts) drops `type` from marked nodes in what the serializer sees; an
// untyped node is written with JSON.stringify, which honours rawJSON. The OpenAPI document puts
// `type: number` back (openapi.ts), so clients still read a number.
import { z } from 'zod';
import { parseDecimal, plainDecimal } from '../billing/amounts.ts';

declare global {
  interface JSON {
    rawJSON(text: string): RawJSON;
  }
  interface RawJSON {
    readonly rawJSON: string;
  }
}

export const EXACT_MARK = 'x-exact-number';

/** What an exact field holds on the way out: a number when the double is exact, else its literal. */
export type ExactNumber = number | RawJSON;

export const exactNumberSchema = (description: string) => z.number().meta({ [EXACT_MARK]: true, description });

/** Decimal text as the database holds it ("10.5000000", "123…4567") → an exact JSON number. */
export function exactNumber(text: string): ExactNumber {
  const d = parseDecimal(text);
  if (!d) throw new TypeError(`not a decimal: ${text}`);
  const plain = plainDecimal(d);
  const n = Number(plain);
  return String(n) === plain ? n : JSON.rawJSON(plain);
}

/** Walks a JSON Schema and applies fn to every node marked exact. */
export function forEachExact(schema: unknown, fn: (node: Record<string, unknown>) => void): void {
  if (schema === null || typeof schema !== 'object') return;
  if (Array.isArray(schema)) {
    for (const s of schema) forEachExact(s, fn);
    return;
  }
  const node = schema as Record<string, unknown>;
  if (node[EXACT_MARK] === true) fn(node);
  for (const value of Object.values(node)) forEachExact(value, fn);
}
