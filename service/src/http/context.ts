// The verb context for a request: its actor (set by http/auth.ts from the API key, anonymous
// without one) and Fastify's request id.
import type { FastifyRequest } from 'fastify';
import type { Ctx } from '../billing/context.ts';

export const ctxOf = (request: FastifyRequest): Ctx => ({ actor: request.actor });
