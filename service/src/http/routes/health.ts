// GET /health: 200 when the database answers a trivial query, 503 otherwise (including when no
// database is configured), so a load balancer stops sending traffic to a replica that cannot serve.
import type { FastifyRequest } from 'fastify';
import type { RoutesPlugin } from '../route-plugin.ts';
import { errorBody } from '../errors.ts';

// A black-holed database must not hang the probe longer than a load balancer waits.
export const PROBE_TIMEOUT_MS = 2_000;

export function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`database did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** The answer says "Database unavailable"; the log says why (the driver's words). */
export function logProbeFailure(request: FastifyRequest, err: unknown): void {
  const cause = (err as { cause?: { message?: unknown } }).cause;
  request.log.warn({ cause: cause?.message ?? (err as Error).message }, `${request.url}: ${(err as Error).message}`);
}

export const healthRoutes: RoutesPlugin = async (app, { deps }) => {
  app.get('/health', { config: { access: 'none' } }, async (request, reply) => {
    try {
      await withTimeout(deps.db.query('SELECT 1'), PROBE_TIMEOUT_MS);
      return { status: 'ok' };
    } catch (err) {
      logProbeFailure(request, err);
      return reply.code(503).send({ status: 'unavailable', ...errorBody((err as Error).message) });
    }
  });
};
