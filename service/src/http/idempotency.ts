// Idempotency-Key at the edge: every POST of the API takes the header (billing/idempotency/
// idempotent-request.ts has the rules). The key is taken after authentication and validation
// (preHandler), so a request refused for its key or its body stores nothing and may be corrected;
// the answer is stored as it leaves (onSend), whatever produced it, a 500 included. A replay is
// answered from the stored text and says so in `idempotent-replayed: true`.
import type { FastifyInstance, FastifyRequest, onSendHookHandler, preHandlerAsyncHookHandler } from 'fastify';
import type { makeIdempotentRequests } from '../billing/idempotency/idempotent-request.ts';
import { InvalidInputError, invalidInput } from '../schemas/invalid-input.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set while this request owns its Idempotency-Key: its answer is stored on the way out. */
    idempotent: { scope: string; key: string } | null;
  }
}

const HEADER = 'idempotency-key';
const KEY = /^[\x21-\x7e](?:[\x20-\x7e]{0,253}[\x21-\x7e])?$/;
export const BAD_KEY = 'Idempotency-Key must be 1 to 255 printable ASCII characters';

/** The same JSON whatever the order of the client's keys. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value instanceof Date) return JSON.stringify(value);
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
}

const fingerprintOf = (request: FastifyRequest) =>
  `${request.method} ${request.url.split('?')[0]}\n${canonical(request.body ?? {})}`;

export function installIdempotency(scope: FastifyInstance, requests: ReturnType<typeof makeIdempotentRequests>): void {
  scope.decorateRequest<{ scope: string; key: string } | null>('idempotent', null);

  const begin: preHandlerAsyncHookHandler = async (request, reply) => {
    const header = request.headers[HEADER];
    if (header === undefined) return;
    const key = Array.isArray(header) ? header[0] : header;
    if (!KEY.test(key)) throw new InvalidInputError(invalidInput('Idempotency-Key', BAD_KEY));
    const begun = await requests.begin({ actor: request.actor, key, fingerprint: fingerprintOf(request) });
    if (begun.kind === 'run') {
      request.idempotent = { scope: begun.scope, key: begun.key };
      return;
    }
    return reply
      .code(begun.status)
      .header('idempotent-replayed', 'true')
      .type('application/json; charset=utf-8')
      .send(begun.body);
  };

  const finish: onSendHookHandler = async (request, reply, payload) => {
    const run = request.idempotent;
    if (!run) return payload;
    request.idempotent = null;
    const body =
      typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined;
    try {
      if (body === undefined) await requests.release(run);
      else await requests.finish(run, reply.statusCode, body);
    } catch (err) {
      // The answer still goes out; without a stored answer the key is given back so that a retry
      // runs again instead of waiting out the abandonment window.
      request.log.warn({ err }, 'could not store the answer of an idempotent request');
      await requests.release(run).catch(() => {});
    }
    return payload;
  };

  // Only POST routes carry the hooks: a GET pays nothing for idempotency (two async hooks per
  // request showed in the profile). They run first, as scope-level hooks would.
  scope.addHook('onRoute', (route) => {
    if (![route.method].flat().includes('POST')) return;
    route.preHandler = [begin, ...[route.preHandler ?? []].flat()];
    route.onSend = [finish, ...[route.onSend ?? []].flat()];
  });
}
