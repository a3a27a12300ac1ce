// JSON request bodies: Fastify's own parser (its errors, its prototype-poisoning guard), then two
// checks no field schema can make, because both are lost once the text has become values:
//  - a number whose digits a double cannot hold (12345678901234567890, 1.00000000000000001) would
//    silently become another number: 400, telling the client to send a numeric string instead;
//  - a NUL character (U+0000, "\u0000" in JSON) in any string: PostgreSQL text cannot hold it, so
//    it would come back as a 500 database error: 400 instead.
// Both re-read the text with JSON.parse's source access (Node 24), only when the text could hold
// such a number or a NUL at all, so an ordinary body is parsed once.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseDecimal, sameDecimal } from '../billing/amounts.ts';
import { InvalidInputError, invalidInput } from '../schemas/invalid-input.ts';

// Sixteen digits (or points) in a row, an exponent, or an escaped NUL: nothing else can fail.
const SUSPECT = /[\d.]{16,}|\d[eE]|\\u0000/;

type Reviver = (this: unknown, key: string, value: unknown, context?: { source?: string }) => unknown;

/** Throws InvalidInputError naming the field, for the first inexact number or NUL-bearing string. */
export function checkJsonText(text: string): void {
  if (!SUSPECT.test(text)) return;
  const check: Reviver = (key, value, context) => {
    const field = key === '' ? 'body' : key;
    if (typeof value === 'number' && context?.source !== undefined) {
      const written = parseDecimal(context.source);
      const held = parseDecimal(String(value));
      if (!written || !held || !sameDecimal(written, held)) {
        throw new InvalidInputError(
          invalidInput(
            field,
            `${context.source} cannot be held exactly by a JSON number; send it as a numeric string ("${context.source}")`,
          ),
        );
      }
    }
    if (typeof value === 'string' && value.includes('\u0000')) {
      throw new InvalidInputError(invalidInput(field, `${field} must not contain NUL characters`));
    }
    return value;
  };
  JSON.parse(text, check as Parameters<typeof JSON.parse>[1]);
}

export function installJsonBodies(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request: FastifyRequest, body: string, done) => {
    parse(request, body, (err, value) => {
      if (err) return done(err, undefined);
      try {
        checkJsonText(body);
      } catch (e) {
        return done(e as Error, undefined);
      }
      done(null, value);
    });
  });
}
