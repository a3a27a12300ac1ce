// Webhook endpoints and the delivery queue. Claims lease rows with FOR UPDATE SKIP LOCKED, so any
// number of workers (replicas) take disjoint work and none waits on another's rows; every time is
// the database's, so replicas with drifting clocks still agree on what is due.
import type { EventType } from '../../billing/events/event-types.ts';
import type { Sealed } from '../../billing/signing-keys/signing-keys-port.ts';
import type {
  AttemptRecord,
  ClaimedDelivery,
  Delivery,
  DeliveryAttempt,
  EndpointEventTypes,
  SealedEndpoint,
  WebhookEndpoint,
  WebhooksRepo,
} from '../../billing/webhooks/webhooks-port.ts';
import type { Queryable } from '../db.ts';
import { parseExactJson } from './events-repo.ts';

const ENDPOINT = 'id, merchant_id, url, event_types, created_at, disabled_at, disabled_reason, previous_expires_at';
type SealedRow = WebhookEndpoint & {
  kek_id: string;
  ciphertext: string;
  previous_kek_id: string | null;
  previous_ciphertext: string | null;
};

const sealed = (r: SealedRow): SealedEndpoint => {
  const { kek_id, ciphertext, previous_kek_id, previous_ciphertext, ...endpoint } = r;
  // The previous secret signs only until its expiry; after that it is as good as gone.
  const live =
    previous_kek_id !== null &&
    previous_ciphertext !== null &&
    r.previous_expires_at !== null &&
    r.previous_expires_at > new Date();
  return {
    ...endpoint,
    secret: { kekId: kek_id, ciphertext },
    previous: live ? { kekId: previous_kek_id, ciphertext: previous_ciphertext } : null,
  };
};

// Due rows of live endpoints, oldest due first. SKIP LOCKED: a row another worker is claiming right
// now is passed over, not waited for. The lease moves next_attempt_at past the attempt's timeout, so
// a worker that dies mid-call leaves a row that comes due again by itself.
const CLAIM = `
  WITH due AS (
    SELECT d.id FROM webhook_deliveries d
     WHERE d.status = 'pending' AND d.next_attempt_at <= now()
     ORDER BY d.next_attempt_at
     LIMIT $1
     FOR UPDATE SKIP LOCKED
  )
  UPDATE webhook_deliveries d
     SET next_attempt_at = now() + make_interval(secs => $2::double precision / 1000), attempts = d.attempts + 1
    FROM due, webhook_endpoints w, events e
   WHERE d.id = due.id AND w.id = d.endpoint_id AND e.id = d.event_id
  RETURNING d.id, d.event_id, d.endpoint_id, d.attempts, d.opened_at, w.url,
            w.kek_id, w.ciphertext, w.previous_kek_id, w.previous_ciphertext, w.previous_expires_at,
            e.type, e.created_at AS event_created_at, e.merchant_id, e.actor, e.data::text AS data_text, e.object_id, now() AS now`;

type ClaimRow = Omit<ClaimedDelivery, 'secret' | 'previous' | 'event'> & {
  kek_id: string;
  ciphertext: string;
  previous_kek_id: string | null;
  previous_ciphertext: string | null;
  previous_expires_at: Date | null;
  type: EventType;
  event_created_at: Date;
  merchant_id: string;
  actor: ClaimedDelivery['event']['actor'];
  data_text: string;
  object_id: string;
};

const claimed = (r: ClaimRow): ClaimedDelivery => ({
  id: r.id,
  event_id: r.event_id,
  endpoint_id: r.endpoint_id,
  attempts: r.attempts,
  opened_at: r.opened_at,
  url: r.url,
  secret: { kekId: r.kek_id, ciphertext: r.ciphertext },
  previous:
    r.previous_kek_id && r.previous_ciphertext && r.previous_expires_at && r.previous_expires_at > r.now
      ? { kekId: r.previous_kek_id, ciphertext: r.previous_ciphertext }
      : null,
  event: {
    id: r.event_id,
    type: r.type,
    created_at: r.event_created_at,
    merchant_id: r.merchant_id,
    actor: r.actor,
    data: parseExactJson(r.data_text) as ClaimedDelivery['event']['data'],
    object_id: r.object_id,
  },
  now: r.now,
});

export function createWebhooksRepo(db: Queryable): WebhooksRepo {
  const attempt = (a: AttemptRecord, delivered: boolean) =>
    db.query(
      `INSERT INTO webhook_attempts (delivery_id, response_status, error, duration_ms, delivered) VALUES ($1, $2, $3, $4, $5)`,
      [a.delivery_id, a.response_status, a.error, a.duration_ms, delivered],
      'webhook_attempt_insert',
    );

  return {
    async insertEndpoint(e) {
      const { rows } = await db.query<WebhookEndpoint>(
        `INSERT INTO webhook_endpoints (id, merchant_id, url, event_types, kek_id, ciphertext) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${ENDPOINT}`,
        [e.id, e.merchant_id, e.url, e.event_types, e.secret.kekId, e.secret.ciphertext],
        'webhook_endpoint_insert',
      );
      return rows[0];
    },

    async listEndpoints(merchantId) {
      const { rows } = await db.query<WebhookEndpoint>(
        `SELECT ${ENDPOINT} FROM webhook_endpoints WHERE deleted_at IS NULL AND ($1::uuid IS NULL OR merchant_id = $1::uuid) ORDER BY created_at, id`,
        [merchantId ?? null],
        'webhook_endpoint_list',
      );
      return rows;
    },

    async findEndpoint(id) {
      const { rows } = await db.query<SealedRow>(
        `SELECT ${ENDPOINT}, kek_id, ciphertext, previous_kek_id, previous_ciphertext FROM webhook_endpoints WHERE id = $1 AND deleted_at IS NULL`,
        [id],
        'webhook_endpoint_find',
      );
      return rows[0] ? sealed(rows[0]) : null;
    },

    async deleteEndpoint(id) {
      const { rows } = await db.query<WebhookEndpoint>(
        `UPDATE webhook_endpoints SET deleted_at = now() WHERE id = $1 AND deleted_at IS NULL RETURNING ${ENDPOINT}`,
        [id],
        'webhook_endpoint_delete',
      );
      if (rows[0]) await failPending(db, id, 'endpoint deleted');
      return rows[0] ?? null;
    },

    async rotateSecret(id, secret: Sealed, previousExpiresAt) {
      const { rows } = await db.query<WebhookEndpoint>(
        `UPDATE webhook_endpoints
            SET previous_kek_id = kek_id, previous_ciphertext = ciphertext, previous_expires_at = $4, kek_id = $2, ciphertext = $3
          WHERE id = $1 AND deleted_at IS NULL RETURNING ${ENDPOINT}`,
        [id, secret.kekId, secret.ciphertext, previousExpiresAt],
        'webhook_endpoint_rotate',
      );
      return rows[0] ?? null;
    },

    async claimDue(limit, leaseMs) {
      const { rows } = await db.query<ClaimRow>(CLAIM, [limit, leaseMs], 'webhook_claim');
      return rows.map(claimed);
    },

    async recordSuccess(a) {
      await attempt(a, true);
      await db.query(
        `UPDATE webhook_deliveries SET status = 'delivered', delivered_at = now(), last_error = NULL WHERE id = $1 AND status = 'pending'`,
        [a.delivery_id],
        'webhook_delivered',
      );
      await db.query(
        `UPDATE webhook_endpoints SET failing_since = NULL WHERE id = $1 AND failing_since IS NOT NULL`,
        [a.endpoint_id],
        'webhook_endpoint_healthy',
      );
    },

    async recordFailure(a, retryAt) {
      await attempt(a, false);
      await db.query(
        `UPDATE webhook_deliveries SET status = CASE WHEN $2::timestamptz IS NULL THEN 'failed' ELSE 'pending' END,
                next_attempt_at = COALESCE($2::timestamptz, next_attempt_at), last_error = $3
          WHERE id = $1 AND status = 'pending'`,
        [a.delivery_id, retryAt, a.error ?? `HTTP ${a.response_status}`],
        'webhook_failed_attempt',
      );
      const { rows } = await db.query<{ failing_since: Date }>(
        `UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, now()) WHERE id = $1 RETURNING failing_since`,
        [a.endpoint_id],
        'webhook_endpoint_failing',
      );
      return { failingSince: rows[0]?.failing_since ?? new Date() };
    },

    async disableEndpoint(id, reason) {
      const { rowCount } = await db.query(
        `UPDATE webhook_endpoints SET disabled_at = now(), disabled_reason = $2 WHERE id = $1 AND disabled_at IS NULL`,
        [id, reason],
        'webhook_endpoint_disable',
      );
      if (rowCount) await failPending(db, id, `endpoint disabled: ${reason}`);
    },

    async listDeliveries(eventId) {
      const { rows } = await db.query<
        Omit<Delivery, 'log'> & { log: (Omit<DeliveryAttempt, 'attempted_at'> & { attempted_at: string })[] }
      >(
        `SELECT d.id, d.event_id, d.endpoint_id, d.status, d.attempts,
                CASE WHEN d.status = 'pending' THEN d.next_attempt_at END AS next_attempt_at, d.last_error, d.created_at, d.delivered_at,
                COALESCE((SELECT json_agg(json_build_object('attempted_at', a.attempted_at, 'response_status', a.response_status,
                                 'error', a.error, 'duration_ms', a.duration_ms, 'delivered', a.delivered) ORDER BY a.id)
                            FROM webhook_attempts a WHERE a.delivery_id = d.id), '[]'::json) AS log
           FROM webhook_deliveries d WHERE d.event_id = $1 ORDER BY d.created_at, d.id`,
        [eventId],
        'webhook_deliveries_of_event',
      );
      return rows.map((r) => ({ ...r, log: r.log.map((l) => ({ ...l, attempted_at: new Date(l.attempted_at) })) }));
    },

    async redeliver(eventId, merchantId, type) {
      const { rowCount } = await db.query(
        `INSERT INTO webhook_deliveries (event_id, endpoint_id)
         SELECT $1, w.id FROM webhook_endpoints w
          WHERE w.merchant_id = $2 AND w.deleted_at IS NULL AND w.disabled_at IS NULL AND ($3 = ANY (w.event_types) OR '*' = ANY (w.event_types))
         ON CONFLICT (event_id, endpoint_id) DO UPDATE
           SET status = 'pending', next_attempt_at = now(), opened_at = now(), delivered_at = NULL`,
        [eventId, merchantId, type],
        'webhook_redeliver',
      );
      return rowCount;
    },
  };
}

function failPending(db: Queryable, endpointId: string, why: string) {
  return db.query(
    `UPDATE webhook_deliveries SET status = 'failed', last_error = $2 WHERE endpoint_id = $1 AND status = 'pending'`,
    [endpointId, why],
    'webhook_fail_pending',
  );
}

export type { EndpointEventTypes };
