// GET /ready: readiness. The database answers and every shipped migration has run, so a replica
// started against an old schema takes no traffic. /health, next door, stays the cheaper liveness
// probe. A production service left in AUTH_MODE=open stays ready but says so in `warning`.
import type { RoutesPlugin } from '../route-plugin.ts';
import { errorBody } from '../errors.ts';
import { logProbeFailure, PROBE_TIMEOUT_MS, withTimeout } from './health.ts';

export const OPEN_IN_PRODUCTION =
  "AUTH_MODE=open in production: requests without an API key may create, read and delete every merchant's data; set AUTH_MODE=keys";

export const operationsRoutes: RoutesPlugin = async (app, { deps }) => {
  const shipped = deps.migrations.shipped();
  const { nodeEnv, authMode } = deps.config;
  const warning = nodeEnv === 'production' && authMode === 'open' ? { warning: OPEN_IN_PRODUCTION } : {};

  app.get('/ready', { config: { access: 'none' } }, async (request, reply) => {
    try {
      const pending = await withTimeout(deps.migrations.pending(), PROBE_TIMEOUT_MS);
      if (pending.length > 0) {
        return reply
          .code(503)
          .send({ status: 'unavailable', ...errorBody(`migrations not applied: ${pending.join(', ')}`) });
      }
      return { status: 'ready', migrations: shipped.length, ...warning };
    } catch (err) {
      logProbeFailure(request, err);
      return reply.code(503).send({ status: 'unavailable', ...errorBody((err as Error).message) });
    }
  });
};
