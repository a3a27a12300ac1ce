// Every error answer of the service, in one shape: `{ "error": "..." }`. Domain errors map through
// the code table, validation failures give the spec's "Invalid input on ..." text, Fastify's own
// 4xx (malformed JSON, 413, 415, bad URL) keep their message, an unknown route is 404, and
// anything unexpected is a generic 500 whose stack goes to the log, never to the client.
// 4xx are not logged: they are the client's mistake and their messages may quote the input.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BillingError } from '../billing/errors.ts';
import { GENERIC_500, billingErrorResponse, errorBody, frameworkErrorResponse } from './errors.ts';
import type { ErrorResponse } from './errors.ts';
import { pathOf } from './request-log.ts';

function logServerError(request: FastifyRequest, err: unknown, res: ErrorResponse): void {
  if (err instanceof BillingError) {
    // Database and chain messages are the information; their causes may hold query parameters.
    // A lost connection is the exception: the client only hears "Database unavailable", so the
    // driver's own words (host, user, database) go to the operator here.
    const cause = err.cause as { code?: unknown; constraint?: unknown; message?: unknown } | undefined;
    const detail = err.code === 'DATABASE_UNAVAILABLE' ? { cause: String(cause?.message || cause?.code || cause) } : {};
    request.log.error(
      { code: err.code, cause_code: cause?.code, constraint: cause?.constraint, ...detail },
      err.message,
    );
    return;
  }
  request.log.error({ err }, `unexpected error answered ${res.status}`);
}

export function toErrorResponse(err: unknown): ErrorResponse {
  if (err instanceof BillingError) return billingErrorResponse(err);
  const framework = frameworkErrorResponse(err as FastifyError);
  return framework ?? { status: 500, body: errorBody(GENERIC_500) };
}

/** Fastify's `frameworkErrors` option: a bad URL (e.g. broken %-encoding) before any route runs. */
export function frameworkErrors(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const res = toErrorResponse(err);
  void reply.code(res.status).send(res.body);
}

/** `onNotFound` sees every unmatched request (metrics: the not-found handler is not a route, so no route hook runs). */
export function installErrorHandling(app: FastifyInstance, onNotFound?: (reply: FastifyReply) => void): void {
  app.setErrorHandler((err, request, reply) => {
    const res = toErrorResponse(err);
    if (res.status >= 500) logServerError(request, err, res);
    return reply.code(res.status).send(res.body);
  });

  app.setNotFoundHandler((request, reply) => {
    onNotFound?.(reply);
    return reply.code(404).send(errorBody(`Route ${request.method} ${pathOf(request.url)} not found`));
  });
}
