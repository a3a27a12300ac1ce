// The shape of every route file: a Fastify plugin handed the built dependencies at registration.
import type { FastifyPluginAsync } from 'fastify';
import type { Deps } from '../deps.ts';

export type RoutesPlugin = FastifyPluginAsync<{ deps: Deps }>;
