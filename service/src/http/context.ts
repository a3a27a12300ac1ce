// The verb context for a request: the API actor (no credentials exist yet) and Fastify's request id.
import type { FastifyRequest } from 'fastify';
import type { Ctx } from '../billing/context.ts';

const API_ACTOR = { kind: 'api' } as const;

export const ctxOf = (request: FastifyRequest): Ctx => ({ actor: API_ACTOR, requestId: request.id });
