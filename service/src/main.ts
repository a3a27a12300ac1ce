// The process: read the environment once, build dependencies, bring the schema up to date,
// listen, and on SIGTERM/SIGINT stop accepting, finish in-flight requests, then close the database.
import { buildApp, buildMetricsApp } from './app.ts';
import { KEY_USAGE_FLUSH_MS } from './billing/access/key-usage.ts';
import { OPEN_IN_PRODUCTION } from './http/routes/operations.ts';
import { ConfigError, describeDatabase, loadConfig } from './config.ts';
import type { Config } from './config.ts';
import { buildDeps, closeDeps } from './deps.ts';
import { startCollector, type Collector } from './jobs/collector.ts';
import { startReconciler, type Reconciler } from './jobs/reconciler.ts';
import { startWebhookWorker, type WebhookWorker } from './jobs/webhook-worker.ts';
import { migrate } from './storage/migrate.ts';

function readConfig(): Config {
  try {
    return loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}

async function main(): Promise<void> {
  const config = readConfig();
  const deps = await buildDeps(config);
  const log = deps.logger;
  log.info(`database: ${describeDatabase(config.database)}`);
  if (config.database.kind === 'none') {
    log.warn('NODE_ENV=production without DATABASE_URL: routes that need the database answer 500');
  } else {
    const applied = await migrate(deps.db, (msg) => log.debug(msg)).catch((err: unknown) => {
      // The first statement of the process: an unreachable or black-holed server ends here, after
      // DB_CONNECT_TIMEOUT_MS, with a message that says which database and why.
      // Clients only ever see "Database unavailable"; the operator starting the process gets the driver's reason.
      const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
      const reason =
        cause instanceof Error ? cause.message || (cause as { code?: string }).code || cause.name : String(cause);
      throw new Error(`cannot use the database (${describeDatabase(config.database)}): ${reason}`);
    });
    log.info(applied.length ? `migrations applied: ${applied.join(', ')}` : 'schema up to date');
  }
  if (!config.contractId) log.warn('CONTRACT_ID is not set: /trigger-pull will answer 500 until it is');
  if (config.nodeEnv === 'production' && config.authMode === 'open') log.warn(OPEN_IN_PRODUCTION);
  if (!config.signingKeyEncryptionKeys)
    log.info('SIGNING_KEY_ENCRYPTION_KEY is not set: merchants cannot store signing keys');
  if (!config.cursorSecret)
    log.info('CURSOR_SECRET is not set: listing cursors are signed with a random secret and die with this process');

  const app = buildApp(deps);
  await app.listen({ port: config.port, host: config.host });
  const metricsApp = config.metrics.port === undefined ? undefined : buildMetricsApp(deps);
  await metricsApp?.listen({ port: config.metrics.port, host: config.host });
  // last_used_at of API keys, coalesced: one statement per interval, not one per request.
  const keyUsageFlush = setInterval(() => {
    deps.keyUsage.flush().catch((err: unknown) => log.warn({ err }, 'could not record API key use'));
  }, KEY_USAGE_FLUSH_MS);
  keyUsageFlush.unref();
  // Attempts left pending by a crash or a 202 are resolved now and then on a timer.
  let reconciler: Reconciler | undefined;
  let collector: Collector | undefined;
  // Webhooks are delivered by every replica; the database hands each delivery to one of them.
  let webhookWorker: WebhookWorker | undefined;
  if (config.database.kind !== 'none') {
    reconciler = startReconciler(deps.pullVerbs.reconcilePending, config.reconcileIntervalMs, log);
    if (config.collector.enabled) {
      collector = startCollector(deps.collection, {
        intervalMs: config.collector.intervalMs,
        concurrency: config.collector.concurrency,
        log,
      });
      log.info(`collector: every ${config.collector.intervalMs} ms, ${config.collector.concurrency} at a time`);
    }
    webhookWorker = startWebhookWorker({
      deliveries: deps.eventVerbs.deliveries,
      idempotency: deps.repos.idempotency,
      concurrency: config.webhooks.concurrency,
      pollIntervalMs: config.webhooks.pollIntervalMs,
      log,
    });
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      log.warn(`${signal} again: exiting without waiting`);
      process.exit(1);
    }
    stopping = true;
    log.info(`${signal}: closing`);
    const overdue = setTimeout(() => {
      log.error(`${signal}: requests still in flight after ${config.shutdownTimeoutMs} ms, exiting`);
      process.exit(1);
    }, config.shutdownTimeoutMs);
    overdue.unref();
    // Stops accepting, then waits for requests in flight, including pulls being polled, so their
    // outcomes are recorded before the pool closes. A keep-alive connection whose request finishes
    // during the drain would hold the server open until its keep-alive timeout: close those as
    // soon as they go idle.
    const dropIdle = setInterval(() => app.server.closeIdleConnections(), 100);
    await app.close();
    await metricsApp?.close();
    clearInterval(dropIdle);
    clearInterval(keyUsageFlush);
    await collector?.stop();
    await reconciler?.stop();
    await webhookWorker?.stop();
    await closeDeps(deps);
    process.exit(0);
  };
  process.on('SIGTERM', (s) => void stop(s));
  process.on('SIGINT', (s) => void stop(s));
}

main().catch((err: unknown) => {
  console.error('start-up failed:', err instanceof Error ? err.message : err);
  process.exit(1);
});
