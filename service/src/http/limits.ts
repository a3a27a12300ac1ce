// Optional per-client rate limit and CORS, both off unless configured, so by default they cost
// nothing per request. Registered before the routes: both plugins hook routes as they are added.
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { REQUEST_ID_HEADER } from './observability.ts';

// Load balancers and Prometheus must never be throttled into marking a replica down.
const PROBES = new Set(['/health', '/ready', '/metrics']);

/** Thrown to the error handler, which answers it in the `{"error": …}` shape with its status. */
class RateLimitedError extends Error {
  override name = 'RateLimitedError';
  readonly statusCode = 429;
}

export function installLimits(app: FastifyInstance, config: Pick<Config, 'rateLimit' | 'corsOrigins'>): void {
  if (config.rateLimit) {
    app.register(rateLimit, {
      global: true,
      max: config.rateLimit.max,
      timeWindow: config.rateLimit.windowMs,
      allowList: (request) => PROBES.has(request.url),
      errorResponseBuilder: (_request, ctx) => new RateLimitedError(`Rate limit exceeded, retry in ${ctx.after}`),
    });
  }
  if (config.corsOrigins) {
    const any = config.corsOrigins.includes('*');
    app.register(cors, {
      origin: any ? true : config.corsOrigins,
      methods: ['GET', 'POST', 'PUT', 'DELETE'],
      allowedHeaders: ['Content-Type', 'Authorization', REQUEST_ID_HEADER],
      exposedHeaders: [REQUEST_ID_HEADER],
      maxAge: 600,
    });
  }
}
