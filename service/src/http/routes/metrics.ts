// GET /metrics (Prometheus text format), on the API's port or on METRICS_PORT (app.ts). With
// METRICS_AUTH=operator (the default in keys mode on the API's port) only ADMIN_API_KEY reads it.
// A scrape never waits on the database beyond the pending-pulls gauge's own throttle (metrics.ts).
import type { RoutesPlugin } from '../route-plugin.ts';

export const metricsRoutes: RoutesPlugin = async (app, { deps }) => {
  const access = deps.config.metrics.requireOperatorKey ? 'operator-key' : 'none';
  app.get('/metrics', { config: { access } }, async (_request, reply) => {
    const text = await deps.metrics.registry.metrics();
    return reply.type(deps.metrics.registry.contentType).send(text);
  });
};
