// Idempotency-Key on POST, with Stripe's rules (product.md):
//   - the first request with a key runs; its status and body, a 500 included, are stored for 24 h
//     and replayed to every later request with the same key;
//   - the same key with another method, path or body is 422 (compared by an HMAC of them, so the
//     body itself, which may hold merchant_secret, is never stored);
//   - a request whose first is still running is 409: it may retry once that one has answered;
//   - keys are scoped to the API key that sent them; keyless requests in open mode share one space.
// A request that fails authentication or validation never reaches this and stores nothing (Stripe
// does the same): it can be corrected and sent again with the same key.
// Nothing secret is stored for a replay: an answer whose `api_key` or `secret` holds a credential
// (POST /merchants, …/api-keys, /webhook-endpoints, …/rotate-secret) is stored with that field null.
import { createHmac } from 'node:crypto';
import type { Actor } from '../context.ts';
import { BillingError } from '../errors.ts';
import type { IdempotencyRepo } from './idempotency-port.ts';

export const IDEMPOTENCY_WINDOW_MS = 24 * 3_600_000;
/**
 * A first request running longer than this died with its process (no request lives this long:
 * a pull waits at most its merchant's queue and the confirmation poll): its key is free again.
 * Running it again is safe: /trigger-pull's own attempt record never sends a second transaction.
 */
export const ABANDONED_AFTER_MS = 10 * 60_000;

/** Fields that carry a credential shown once: replayed as null. */
const SECRET_FIELDS = ['api_key', 'secret'];

export type Begun = { kind: 'run'; scope: string; key: string } | { kind: 'replay'; status: number; body: string };

export const scopeOf = (actor: Actor): string =>
  actor.kind === 'merchant' ? `key:${actor.keyId}` : actor.kind === 'system' ? `system:${actor.job}` : actor.kind;

export function withoutSecrets(body: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return body;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return body;
  const obj = parsed as Record<string, unknown>;
  if (!SECRET_FIELDS.some((f) => typeof obj[f] === 'string')) return body;
  // Re-serialising would round an exact amount, so only the secret's own text is replaced.
  let out = body;
  for (const f of SECRET_FIELDS)
    if (typeof obj[f] === 'string')
      out = out.replace(`${JSON.stringify(f)}:${JSON.stringify(obj[f])}`, `${JSON.stringify(f)}:null`);
  return out;
}

export function makeIdempotentRequests(deps: { idempotency: IdempotencyRepo; secret: string | undefined }) {
  let hmacKey: Promise<string> | undefined;
  const keyOf = () => (hmacKey ??= deps.secret !== undefined ? Promise.resolve(deps.secret) : deps.idempotency.salt());
  const hmac = async (fingerprint: string) =>
    createHmac('sha256', `idempotency:${await keyOf()}`)
      .update(fingerprint)
      .digest('hex');

  async function begin({
    actor,
    key,
    fingerprint,
  }: {
    actor: Actor;
    key: string;
    fingerprint: string;
  }): Promise<Begun> {
    const scope = scopeOf(actor);
    const requestHmac = await hmac(fingerprint);
    // Two tries: a row that expired between our claim and our read is claimed on the second.
    for (let i = 0; i < 2; i++) {
      if (await deps.idempotency.claim(scope, key, requestHmac, IDEMPOTENCY_WINDOW_MS, ABANDONED_AFTER_MS))
        return { kind: 'run', scope, key };
      const stored = await deps.idempotency.find(scope, key);
      if (!stored) continue;
      if (stored.request_hmac !== requestHmac) {
        throw new BillingError(
          'IDEMPOTENCY_MISMATCH',
          'Keys for idempotent requests can only be used with the same method, path and parameters they were first used with',
          {
            code: 'idempotency_key_reused',
          },
        );
      }
      if (stored.status === null || stored.body === null) {
        throw new BillingError(
          'IDEMPOTENCY_IN_PROGRESS',
          'A request with this Idempotency-Key is still being processed; retry after it has answered',
          {
            code: 'idempotency_key_in_use',
          },
        );
      }
      return { kind: 'replay', status: stored.status, body: stored.body };
    }
    return { kind: 'run', scope, key };
  }

  async function finish(run: { scope: string; key: string }, status: number, body: string): Promise<void> {
    await deps.idempotency.complete(run.scope, run.key, status, withoutSecrets(body));
  }

  return {
    begin,
    finish,
    release: (run: { scope: string; key: string }) => deps.idempotency.release(run.scope, run.key),
  };
}
