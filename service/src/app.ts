// buildApp(deps): the whole HTTP surface as a Fastify instance that never listens (main.ts does),
// so tests drive it with app.inject and the benchmark with a real socket, through the same code.
import Fastify from 'fastify';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Deps } from './deps.ts';
import { installAuth } from './http/auth.ts';
import { frameworkErrors, installErrorHandling } from './http/error-handler.ts';
import { installJsonBodies } from './http/json-body.ts';
import { apiKeyRoutes } from './http/routes/api-keys.ts';
import { healthRoutes } from './http/routes/health.ts';
import { listingRoutes } from './http/routes/listings.ts';
import { merchantRoutes } from './http/routes/merchants.ts';
import { metricsRoutes } from './http/routes/metrics.ts';
import { planRoutes } from './http/routes/plans.ts';
import { signingKeyRoutes } from './http/routes/signing-key.ts';
import { subscriptionRoutes } from './http/routes/subscriptions.ts';
import { triggerPullRoutes } from './http/routes/trigger-pull.ts';
import { clientSigningRoutes } from './http/routes/client-signing.ts';
import { RequestLogController } from './http/request-log.ts';
import { zodValidatorCompiler } from './http/validation.ts';
import { registerApiDocs } from './http/openapi/openapi.ts';
import { registerWebPages } from './http/web-pages.ts';
import { installObservability, requestIdOptions, unmatchedRecorder } from './http/observability.ts';
import { operationsRoutes } from './http/routes/operations.ts';
import { installLimits } from './http/limits.ts';
import { installIdempotency } from './http/idempotency.ts';
import { eventRoutes } from './http/routes/events.ts';
import { webhookEndpointRoutes } from './http/routes/webhook-endpoints.ts';
import { checkoutRoutes } from './http/routes/checkout.ts';
import { merchantPullRoutes } from './http/routes/merchant-pulls.ts';

// Every route of the API, in one list. Each declares its access (http/auth.ts).
const ROUTES = [
  healthRoutes,
  operationsRoutes,
  merchantRoutes,
  apiKeyRoutes,
  signingKeyRoutes,
  planRoutes,
  subscriptionRoutes,
  triggerPullRoutes,
  clientSigningRoutes,
  listingRoutes,
  eventRoutes,
  webhookEndpointRoutes,
  merchantPullRoutes,
  checkoutRoutes,
];

// Ids of any length must reach their schema and get the spec's 400; a request line is bounded by
// Node's header limit (16 KiB) long before this.
const MAX_PARAM_LENGTH = 65_536;
// How often Node looks for requests past their headers or request timeout (its default is 30 s,
// which would let a slow client outlive a short timeout by that much).
const TIMEOUT_CHECK_MS = 1_000;

export function buildApp(deps: Deps): FastifyInstance {
  const { config } = deps;
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    bodyLimit: config.bodyLimitBytes,
    logController: new RequestLogController(),
    // While draining, Fastify would answer 503 in its own body shape; finishing the request instead
    // is both correct and in our shape (the database is closed only after the server).
    return503OnClosing: false,
    frameworkErrors,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // The client's address for the rate limit: X-Forwarded-For only from the proxies we trust.
    trustProxy: config.trustProxy,
    // A client must deliver its whole request in time (a slow body cannot hold a connection);
    // answering may take longer: a pull waits for its ledger.
    requestTimeout: config.http.requestTimeoutMs,
    http: { headersTimeout: config.http.headersTimeoutMs, connectionsCheckingInterval: TIMEOUT_CHECK_MS },
    ...requestIdOptions,
  });
  // Connections beyond the cap are closed as they arrive, before any request is read.
  app.server.maxConnections = config.http.maxConnections;

  app.setValidatorCompiler(zodValidatorCompiler);
  // Only JSON bodies are spoken here: text/plain gets 415 like any other type, not a string body.
  app.removeContentTypeParser('text/plain');
  installJsonBodies(app);
  installErrorHandling(app, unmatchedRecorder(deps.metrics));
  // Before any route: it hooks every route as it is added.
  installObservability(app, deps.metrics);
  installLimits(app, config);
  registerApiDocs(app, config);
  registerWebPages(app, config);

  // The API in its own scope, so that authentication hooks exactly its routes (not /docs).
  app.register(async (api) => {
    installAuth(api, { mode: config.authMode, authenticate: deps.accountVerbs.authenticate });
    installIdempotency(api, deps.eventVerbs.idempotency);
    for (const routes of ROUTES) api.register(routes, { deps });
    // On its own port (main.ts) when METRICS_PORT is set, never on the API's.
    if (config.metrics.port === undefined) api.register(metricsRoutes, { deps });
  });
  return app as unknown as FastifyInstance;
}

/** The app of METRICS_PORT: /metrics alone, with the same access rule. */
export function buildMetricsApp(deps: Deps): FastifyInstance {
  const app = Fastify({ loggerInstance: deps.logger as FastifyBaseLogger, disableRequestLogging: true });
  installErrorHandling(app);
  app.register(async (scope) => {
    installAuth(scope, { mode: deps.config.authMode, authenticate: deps.accountVerbs.authenticate });
    scope.register(metricsRoutes, { deps });
  });
  return app as unknown as FastifyInstance;
}
