// GET /ready (readiness: the database answers and every shipped migration has run, so a replica
// started against an old schema takes no traffic) and GET /metrics (Prometheus text format).
// /health, next door, stays the cheaper liveness probe.
import type { RoutesPlugin } from '../route-plugin.ts';
import { errorBody } from '../errors.ts';
import { pendingMigrations, shippedMigrations } from '../../storage/migrate.ts';
import { PROBE_TIMEOUT_MS, withTimeout } from './health.ts';

export const operationsRoutes: RoutesPlugin = async (app, { deps }) => {
  // The files cannot change under a running process: read them once.
  const shipped = shippedMigrations();

  app.get('/ready', async (_request, reply) => {
    try {
      const pending = await withTimeout(pendingMigrations(deps.db, shipped), PROBE_TIMEOUT_MS);
      if (pending.length > 0) {
        return reply.code(503).send({ status: 'unavailable', ...errorBody(`migrations not applied: ${pending.join(', ')}`) });
      }
      return { status: 'ready', migrations: shipped.length };
    } catch (err) {
      return reply.code(503).send({ status: 'unavailable', ...errorBody((err as Error).message) });
    }
  });

  app.get('/metrics', async (_request, reply) => {
    const text = await deps.metrics.registry.metrics();
    return reply.type(deps.metrics.registry.contentType).send(text);
  });
};
