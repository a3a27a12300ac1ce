// Webhook plumbing for tests: the environment of fast retries, the delivery worker of an in-process
// app, and an endpoint registered for a receiver.
import { expect } from 'vitest';
import { startWebhookWorker, type WebhookWorker } from '../../src/jobs/webhook-worker.ts';
import type { TestApp } from './app.ts';
import { as } from './keys.ts';
import type { Receiver } from './receiver.ts';

/** Retries in fractions of a second, so that a test sees several of them. */
export const fastWebhooks = (over: Record<string, string> = {}) => ({
  WEBHOOK_RETRY_BASE_MS: '200',
  WEBHOOK_RETRY_MAX_DELAY_MS: '1000',
  WEBHOOK_TIMEOUT_MS: '2000',
  WEBHOOK_POLL_INTERVAL_MS: '50',
  ...over,
});

export function startWorker(t: TestApp): WebhookWorker {
  return startWebhookWorker({
    deliveries: t.deps.eventVerbs.deliveries,
    idempotency: t.deps.repos.idempotency,
    concurrency: t.deps.config.webhooks.concurrency,
    pollIntervalMs: t.deps.config.webhooks.pollIntervalMs,
    log: t.deps.logger,
  });
}

/** Registers the receiver for `types` with `key`; the receiver learns the secret. */
export async function listen(
  t: TestApp,
  key: string,
  receiver: Receiver,
  types: string[] = ['*'],
): Promise<{ id: string; secret: string }> {
  const res = await as(t.app, key).post('/webhook-endpoints', { url: receiver.url, event_types: types });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  receiver.secrets.push(res.body.secret);
  return { id: res.body.webhook_endpoint.id, secret: res.body.secret };
}
