// buildApp(deps): the whole HTTP surface as a Fastify instance that never listens (main.ts does),
// so tests drive it with app.inject and the benchmark with a real socket, through the same code.
import Fastify from 'fastify';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Deps } from './deps.ts';
import { frameworkErrors, installErrorHandling } from './http/error-handler.ts';
import { healthRoutes } from './http/routes/health.ts';
import { listingRoutes } from './http/routes/listings.ts';
import { merchantRoutes } from './http/routes/merchants.ts';
import { planRoutes } from './http/routes/plans.ts';
import { subscriptionRoutes } from './http/routes/subscriptions.ts';
import { triggerPullRoutes } from './http/routes/trigger-pull.ts';
import { RequestLogController } from './http/request-log.ts';
import { zodValidatorCompiler } from './http/validation.ts';
import { registerApiDocs } from './http/openapi/openapi.ts';
import { installObservability, requestIdOptions, unmatchedRecorder } from './http/observability.ts';
import { operationsRoutes } from './http/routes/operations.ts';
import { installLimits } from './http/limits.ts';

// Every route of the service, in one list.
const ROUTES = [healthRoutes, operationsRoutes, merchantRoutes, planRoutes, subscriptionRoutes, triggerPullRoutes, listingRoutes];

export function buildApp(deps: Deps): FastifyInstance {
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    bodyLimit: deps.config.bodyLimitBytes,
    logController: new RequestLogController(),
    // While draining, Fastify would answer 503 in its own body shape; finishing the request instead
    // is both correct and in our shape (the database is closed only after the server).
    return503OnClosing: false,
    frameworkErrors,
    ...requestIdOptions,
  });

  app.setValidatorCompiler(zodValidatorCompiler);
  // Only JSON bodies are spoken here: text/plain gets 415 like any other type, not a string body.
  app.removeContentTypeParser('text/plain');
  installErrorHandling(app, unmatchedRecorder(deps.metrics));
  // Before any route: it hooks every route as it is added.
  installObservability(app, deps.metrics);
  installLimits(app, deps.config);
  registerApiDocs(app);

  for (const routes of ROUTES) app.register(routes, { deps });
  return app as unknown as FastifyInstance;
}
