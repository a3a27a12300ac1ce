-- Up Migration
-- Events (an outbox written in the transaction of the change it reports), webhook endpoints and
-- their deliveries, and stored answers for Idempotency-Key. (0007 is taken by the collection work.)

-- One row per state change worth telling. `data` is `{"object": …}` exactly as the API shows the
-- object at that moment; `actor` says who caused it. created_at is clock_timestamp(), not now(), so
-- two events of one transaction (pull.succeeded, subscription.reactivated) keep their order.
CREATE TABLE events (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  merchant_id uuid NOT NULL REFERENCES merchants (id),
  type        text NOT NULL,
  object_id   uuid NOT NULL,
  actor       jsonb NOT NULL,
  data        jsonb NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT clock_timestamp()
);
-- GET /events is newest first, per merchant, optionally by type or by object: one index each so
-- every page is one backward range scan. The operator's unscoped listing uses the last one.
CREATE INDEX events_merchant_idx ON events (merchant_id, created_at DESC, id DESC);
CREATE INDEX events_merchant_type_idx ON events (merchant_id, type, created_at DESC, id DESC);
CREATE INDEX events_merchant_object_idx ON events (merchant_id, object_id, created_at DESC, id DESC);
CREATE INDEX events_created_idx ON events (created_at DESC, id DESC);

-- A merchant's receivers. The signing secret is sealed like a signing key (AES-256-GCM under
-- SIGNING_KEY_ENCRYPTION_KEY, bound to the endpoint's id); after a rotation the previous secret
-- keeps signing until previous_expires_at, so receivers can switch without missing a delivery.
CREATE TABLE webhook_endpoints (
  id                  uuid PRIMARY KEY,
  merchant_id         uuid NOT NULL REFERENCES merchants (id),
  url                 text NOT NULL,
  event_types         text[] NOT NULL CHECK (cardinality(event_types) > 0),
  kek_id              text NOT NULL,
  ciphertext          text NOT NULL,
  previous_kek_id     text,
  previous_ciphertext text,
  previous_expires_at timestamptz,
  created_at          timestamptz NOT NULL DEFAULT now(),
  -- Set with the first failed attempt after a success, cleared by the next success: once it is
  -- older than WEBHOOK_DISABLE_AFTER_MS the endpoint is disabled, with the reason.
  failing_since       timestamptz,
  disabled_at         timestamptz,
  disabled_reason     text,
  deleted_at          timestamptz
);
-- The fan-out in the event's own INSERT reads the merchant's live endpoints.
CREATE INDEX webhook_endpoints_merchant_idx ON webhook_endpoints (merchant_id, created_at, id) WHERE deleted_at IS NULL;

-- One row per (event, endpoint): the work queue of the delivery worker. A worker claims due rows
-- with FOR UPDATE SKIP LOCKED and leases each for one attempt by moving next_attempt_at past the
-- attempt's timeout; the HTTP call runs outside any transaction, and a worker that dies mid-call
-- leaves a row that simply comes due again (at least once). opened_at starts the retry window
-- (creation, or the last manual redelivery).
CREATE TABLE webhook_deliveries (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  event_id        uuid NOT NULL REFERENCES events (id),
  endpoint_id     uuid NOT NULL REFERENCES webhook_endpoints (id),
  status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  opened_at       timestamptz NOT NULL DEFAULT now(),
  last_error      text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  delivered_at    timestamptz,
  CONSTRAINT webhook_deliveries_event_endpoint_key UNIQUE (event_id, endpoint_id)
);
-- Only pending rows are ever looked for by the worker: a small partial index however long the log.
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';

-- Every HTTP attempt of a delivery: the delivery log a merchant reads.
CREATE TABLE webhook_attempts (
  id            bigserial PRIMARY KEY,
  delivery_id   uuid NOT NULL REFERENCES webhook_deliveries (id),
  attempted_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
  response_status integer,
  error         text,
  duration_ms   integer NOT NULL,
  delivered     boolean NOT NULL
);
CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id, id);

-- Idempotency-Key: the first answer to a POST, replayed for 24 h. scope is the API key's id, or
-- 'operator', or 'anonymous' (keyless requests in open mode share one space). request_hmac is an
-- HMAC of method, path and body, never the body itself (it may hold merchant_secret). status and
-- body stay null while the first request runs; answers holding a secret are stored with it null.
CREATE TABLE idempotency_keys (
  scope        text NOT NULL,
  key          text NOT NULL,
  request_hmac text NOT NULL,
  status       integer,
  body         text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);

-- The HMAC key of request_hmac when CURSOR_SECRET is unset: random per database (drawn by
-- gen_random_uuid's strong random source), so replicas and restarts agree without configuration.
CREATE TABLE idempotency_salt (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  salt     text NOT NULL
);
INSERT INTO idempotency_salt (salt) VALUES (gen_random_uuid()::text || gen_random_uuid()::text);

-- Down Migration
DROP TABLE idempotency_salt;
DROP TABLE idempotency_keys;
DROP TABLE webhook_attempts;
DROP TABLE webhook_deliveries;
DROP TABLE webhook_endpoints;
DROP TABLE events;
