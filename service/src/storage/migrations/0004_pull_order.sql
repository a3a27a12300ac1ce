-- Up Migration
-- History is newest first by created_at, which comes from the service's clock; two attempts can
-- share an instant (a frozen test clock, a coarse clock), so an identity column breaks the tie in
-- insertion order instead of by a random uuid.
ALTER TABLE pulls ADD COLUMN attempt_no bigint GENERATED ALWAYS AS IDENTITY;
DROP INDEX pulls_by_subscription;
CREATE INDEX pulls_by_subscription ON pulls (subscription_id, created_at DESC, attempt_no DESC);

-- Down Migration
DROP INDEX pulls_by_subscription;
ALTER TABLE pulls DROP COLUMN attempt_no;
CREATE INDEX pulls_by_subscription ON pulls (subscription_id, created_at DESC, id DESC);
