// The delivery worker's two steps (jobs/webhook-worker.ts runs them in every replica):
//   claimDeliveries  lease due deliveries in the database (FOR UPDATE SKIP LOCKED), so replicas
//                    never take the same row; the lease outlives one attempt's timeout;
//   deliverOne       sign with the endpoint's secret (and the previous one during a rotation's
//                    overlap), POST with no redirects followed, record the answer. Only a 2xx
//                    counts. A failure schedules the next try (retry-schedule.ts) or, past the
//                    retry window, ends the delivery; an endpoint failing for longer than
//                    disableAfterMs is disabled, with the reason, and its pending deliveries end.
// At least once: a worker that dies after the receiver answered but before recording it leaves a
// lease that runs out, and the delivery is made again with the same webhook-id.
import { eventBody } from '../events/event-json.ts';
import type { Repos, UnitOfWork } from '../unit-of-work.ts';
import type { SecretBox } from '../signing-keys/signing-keys-port.ts';
import { openEndpointSecret } from './endpoint-secret.ts';
import { nextRetryAt, type RetryPolicy } from './retry-schedule.ts';
import type { ClaimedDelivery, WebhookSender, WebhookSigner } from './webhooks-port.ts';

export interface DeliveryPolicy extends RetryPolicy {
  timeoutMs: number;
  disableAfterMs: number;
}

export interface DeliverDeps {
  uow: UnitOfWork;
  webhooks: Pick<Repos['webhooks'], 'claimDue'>;
  box: Pick<SecretBox, 'open'>;
  signer: Pick<WebhookSigner, 'headers'>;
  sender: WebhookSender;
  policy: DeliveryPolicy;
  random?: () => number;
}

/** A lease outlives the attempt it covers, with room for recording the answer. */
export const leaseMs = (timeoutMs: number) => timeoutMs * 2 + 5_000;

export type DeliveryOutcome = 'delivered' | 'retrying' | 'failed' | 'disabled';

const hours = (ms: number) => Math.round((ms / 3_600_000) * 10) / 10;

export function makeDeliverWebhooks(deps: DeliverDeps) {
  const random = deps.random ?? Math.random;
  const { policy } = deps;

  async function deliverOne(d: ClaimedDelivery): Promise<DeliveryOutcome> {
    const body = eventBody(d.event);
    let result: Awaited<ReturnType<typeof deps.sender.send>>;
    try {
      const secrets = [d.secret, ...(d.previous ? [d.previous] : [])].map((s) =>
        openEndpointSecret(deps.box, d.endpoint_id, s),
      );
      const headers = deps.signer.headers({ id: d.event_id, timestamp: new Date(), body, secrets });
      result = await deps.sender.send({ url: d.url, headers, body, timeoutMs: policy.timeoutMs });
    } catch (err) {
      // The secret no longer opens (its key-encryption key was removed): a failure like any other.
      result = { error: err instanceof Error ? err.message : String(err), durationMs: 0 };
    }
    const ok = 'status' in result && result.status >= 200 && result.status < 300;
    const record = {
      delivery_id: d.id,
      endpoint_id: d.endpoint_id,
      response_status: 'status' in result ? result.status : null,
      error: 'error' in result ? result.error : ok ? null : `HTTP ${result.status}`,
      duration_ms: Math.round(result.durationMs),
    };
    return deps.uow.run(async (tx) => {
      if (ok) {
        await tx.webhooks.recordSuccess(record);
        return 'delivered';
      }
      const retryAt = nextRetryAt(policy, d.attempts, d.opened_at, d.now, random());
      const { failingSince } = await tx.webhooks.recordFailure(record, retryAt);
      const failingFor = d.now.getTime() - failingSince.getTime();
      if (failingFor >= policy.disableAfterMs) {
        const reason = `no delivery succeeded for ${hours(failingFor)} h (failing since ${failingSince.toISOString()}); last attempt: ${record.error}`;
        await tx.webhooks.disableEndpoint(d.endpoint_id, reason);
        return 'disabled';
      }
      return retryAt ? 'retrying' : 'failed';
    });
  }

  return {
    claimDeliveries: (limit: number) => deps.webhooks.claimDue(limit, leaseMs(policy.timeoutMs)),
    deliverOne,
  };
}
