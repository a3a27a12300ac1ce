// Per-request observability at the least cost: the request id is echoed in `x-request-id`, and
// each route gets its own onResponse hook (added when the route is registered) that records
// count and latency under the route's pattern, using Fastify's own elapsed time.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, onResponseHookHandler } from 'fastify';
import type { Metrics } from '../metrics.ts';

export const REQUEST_ID_HEADER = 'x-request-id';

// A client-supplied id is kept (it ties our log lines to theirs) only when it is short and plain.
const ACCEPTABLE_ID = /^[\w.:-]{1,128}$/;

/** Fastify options: take the caller's x-request-id when sane, otherwise a fresh UUID. */
export const requestIdOptions = {
  requestIdHeader: false as const,
  genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => {
    const given = req.headers[REQUEST_ID_HEADER];
    return typeof given === 'string' && ACCEPTABLE_ID.test(given) ? given : randomUUID();
  },
};

export function installObservability(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });

  app.addHook('onRoute', (route) => {
    const method = Array.isArray(route.method) ? route.method.join(',') : route.method;
    const record = metrics.requestRecorder(method, route.url ?? route.path);
    const hook: onResponseHookHandler = (_request, reply, done) => {
      record(reply.statusCode, reply.elapsedTime / 1000);
      done();
    };
    const existing = route.onResponse;
    route.onResponse = existing === undefined ? [hook] : [...[existing].flat(), hook];
  });
}

/** Unmatched requests, recorded under route "unmatched" (time up to the handler, not the send). */
export function unmatchedRecorder(metrics: Metrics): (reply: FastifyReply) => void {
  const record = metrics.requestRecorder('*', 'unmatched');
  return (reply) => record(404, reply.elapsedTime / 1000);
}
