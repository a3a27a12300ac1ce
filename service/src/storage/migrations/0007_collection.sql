-- Up Migration
-- Automatic collection with dunning: the five statuses, the dunning state of a cycle, cancel and
-- pause, the subscription's health, and one column the collector's global due index is built on.

-- Plans: the retry schedule and the end state after the last try, stored as in force at creation;
-- a plan can be archived (no new subscriptions, existing ones go on). Price and interval never
-- change in place: live vaults hold them.
ALTER TABLE plans
  ADD COLUMN retry_schedule_seconds integer[] NOT NULL DEFAULT '{86400,259200,432000,604800}'
    CHECK (array_position(retry_schedule_seconds, NULL) IS NULL AND 0 < ALL (retry_schedule_seconds)),
  ADD COLUMN final_status text NOT NULL DEFAULT 'past_due' CHECK (final_status IN ('canceled', 'unpaid', 'past_due')),
  ADD COLUMN archived_at timestamptz;

ALTER TABLE subscriptions DROP CONSTRAINT subscriptions_status_check;
ALTER TABLE subscriptions
  ADD CONSTRAINT subscriptions_status_check CHECK (status IN ('active', 'past_due', 'unpaid', 'paused', 'canceled')),
  -- cancel at period end: the collector (or the next /trigger-pull) cancels at this instant
  ADD COLUMN cancel_at timestamptz,
  ADD COLUMN canceled_at timestamptz,
  -- the status held when paused, restored by resume
  ADD COLUMN paused_from text CHECK (paused_from IN ('active', 'past_due', 'unpaid')),
  -- the collector's failed tries in the current cycle, and when the next one is due
  ADD COLUMN dunning_tries integer NOT NULL DEFAULT 0,
  ADD COLUMN next_retry_at timestamptz,
  -- past_due after the last try with final_status past_due: kept, not retried
  ADD COLUMN dunning_exhausted boolean NOT NULL DEFAULT false,
  -- a failure nobody caused (RPC down, fee above the cap) holds the next look until then
  ADD COLUMN hold_until timestamptz,
  -- the merchant has a stored signing key: its subscriptions are collected without a caller
  ADD COLUMN autocollect boolean NOT NULL DEFAULT false,
  -- a replica working on this subscription (set when claimed; a crash lets it lapse)
  ADD COLUMN collector_lease_until timestamptz,
  -- the latest health check (early warning)
  ADD COLUMN health_status text NOT NULL DEFAULT 'unknown',
  ADD COLUMN health_checked_at timestamptz,
  ADD COLUMN health_detail text;

-- When the collector should next look at a subscription, derived from the row itself so that no
-- writer can forget it: a pending cancellation at its instant; a due cycle or retry of a merchant
-- with a stored key. NULL = nothing to do (paused, canceled, unpaid, dunning exhausted, no key).
ALTER TABLE subscriptions ADD COLUMN collect_at timestamptz GENERATED ALWAYS AS (
  CASE
    WHEN status IN ('canceled', 'paused') THEN NULL
    WHEN cancel_at IS NOT NULL THEN cancel_at
    WHEN NOT autocollect THEN NULL
    WHEN status = 'active' THEN GREATEST(next_billing_date, COALESCE(hold_until, next_billing_date))
    WHEN status = 'past_due' AND NOT dunning_exhausted
      THEN GREATEST(COALESCE(next_retry_at, next_billing_date), COALESCE(hold_until, next_billing_date))
  END
) STORED;

-- The global due index: the collector's page across all merchants is one range scan, whatever
-- the table's size.
CREATE INDEX subscriptions_collect_idx ON subscriptions (collect_at, id) WHERE collect_at IS NOT NULL;
-- Early warnings look ahead of the due date across merchants.
CREATE INDEX subscriptions_due_active_idx ON subscriptions (next_billing_date, id) WHERE status IN ('active', 'past_due');

-- autocollect follows the merchant's stored signing key, for every writer.
UPDATE subscriptions s SET autocollect = EXISTS (SELECT 1 FROM signing_keys k WHERE k.merchant_id = s.merchant_id);

CREATE FUNCTION subscriptions_set_autocollect() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.autocollect := EXISTS (SELECT 1 FROM signing_keys WHERE merchant_id = NEW.merchant_id);
  RETURN NEW;
END
$$;
-- Runs after subscriptions_set_merchant_id (triggers fire in name order), so merchant_id is set.
CREATE TRIGGER subscriptions_zz_set_autocollect BEFORE INSERT ON subscriptions
  FOR EACH ROW EXECUTE FUNCTION subscriptions_set_autocollect();

CREATE FUNCTION signing_keys_sync_autocollect() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    UPDATE subscriptions SET autocollect = false WHERE merchant_id = OLD.merchant_id AND autocollect;
    RETURN OLD;
  END IF;
  UPDATE subscriptions SET autocollect = true WHERE merchant_id = NEW.merchant_id AND NOT autocollect;
  RETURN NEW;
END
$$;
CREATE TRIGGER signing_keys_sync_autocollect AFTER INSERT OR DELETE ON signing_keys
  FOR EACH ROW EXECUTE FUNCTION signing_keys_sync_autocollect();

-- Pull history: the collector's tries that pre-flight refused send nothing (no hash), and every
-- row says who tried (a caller of /trigger-pull or the collector) and the cause's code.
ALTER TABLE pulls ALTER COLUMN tx_hash DROP NOT NULL;
ALTER TABLE pulls ALTER COLUMN envelope_xdr DROP NOT NULL;
ALTER TABLE pulls ALTER COLUMN source_account DROP NOT NULL;
ALTER TABLE pulls ALTER COLUMN max_time DROP NOT NULL;
ALTER TABLE pulls DROP CONSTRAINT pulls_status_check;
ALTER TABLE pulls
  ADD CONSTRAINT pulls_status_check CHECK (status IN ('pending', 'confirmed', 'failed', 'expired', 'rejected', 'skipped')),
  ADD CONSTRAINT pulls_sent_has_hash CHECK (status = 'skipped' OR tx_hash IS NOT NULL),
  ADD COLUMN origin text NOT NULL DEFAULT 'manual' CHECK (origin IN ('manual', 'collector')),
  ADD COLUMN code text;

-- Down Migration
ALTER TABLE pulls DROP COLUMN code, DROP COLUMN origin, DROP CONSTRAINT pulls_sent_has_hash, DROP CONSTRAINT pulls_status_check;
DELETE FROM pulls WHERE status = 'skipped';
ALTER TABLE pulls ADD CONSTRAINT pulls_status_check CHECK (status IN ('pending', 'confirmed', 'failed', 'expired', 'rejected'));
ALTER TABLE pulls ALTER COLUMN max_time SET NOT NULL, ALTER COLUMN source_account SET NOT NULL,
  ALTER COLUMN envelope_xdr SET NOT NULL, ALTER COLUMN tx_hash SET NOT NULL;
DROP TRIGGER signing_keys_sync_autocollect ON signing_keys;
DROP FUNCTION signing_keys_sync_autocollect();
DROP TRIGGER subscriptions_zz_set_autocollect ON subscriptions;
DROP FUNCTION subscriptions_set_autocollect();
DROP INDEX subscriptions_due_active_idx;
DROP INDEX subscriptions_collect_idx;
ALTER TABLE subscriptions DROP COLUMN collect_at;
ALTER TABLE subscriptions DROP COLUMN health_detail, DROP COLUMN health_checked_at, DROP COLUMN health_status,
  DROP COLUMN collector_lease_until, DROP COLUMN autocollect, DROP COLUMN hold_until, DROP COLUMN dunning_exhausted,
  DROP COLUMN next_retry_at, DROP COLUMN dunning_tries, DROP COLUMN paused_from, DROP COLUMN canceled_at,
  DROP COLUMN cancel_at, DROP CONSTRAINT subscriptions_status_check;
ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_status_check CHECK (status IN ('active', 'past_due'));
ALTER TABLE plans DROP COLUMN archived_at, DROP COLUMN final_status, DROP COLUMN retry_schedule_seconds;
