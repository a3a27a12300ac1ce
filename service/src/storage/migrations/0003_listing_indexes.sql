-- Up Migration
-- Listings page with keyset pagination: WHERE <scope> AND (sort_key, id) > (cursor) ORDER BY
-- sort_key, id LIMIT n. Each index below leads with the scope's equality column and then holds
-- the sort key and id, so a page is one index range scan of n rows whatever the table's size.

-- Plans of a merchant, oldest first. Its prefix serves what plans_merchant_id_idx did.
CREATE INDEX plans_merchant_created_idx ON plans (merchant_id, created_at, id);
DROP INDEX plans_merchant_id_idx;

-- Subscriptions of a plan, oldest first. Its prefix serves what subscriptions_plan_id_idx did.
CREATE INDEX subscriptions_plan_created_idx ON subscriptions (plan_id, created_at, id);
DROP INDEX subscriptions_plan_id_idx;

-- Subscriptions of a merchant cross plans, so no plan index can give them in one order. The
-- owner is copied onto the row (plans never change merchant), filled by a trigger so that every
-- writer, including bulk loads in SQL that do not know the column, keeps it right.
ALTER TABLE subscriptions ADD COLUMN merchant_id uuid REFERENCES merchants (id);
UPDATE subscriptions s SET merchant_id = p.merchant_id FROM plans p WHERE p.id = s.plan_id;
ALTER TABLE subscriptions ALTER COLUMN merchant_id SET NOT NULL;

CREATE FUNCTION subscriptions_set_merchant_id() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT merchant_id INTO NEW.merchant_id FROM plans WHERE id = NEW.plan_id;
  RETURN NEW;
END
$$;
CREATE TRIGGER subscriptions_set_merchant_id BEFORE INSERT OR UPDATE OF plan_id ON subscriptions
  FOR EACH ROW EXECUTE FUNCTION subscriptions_set_merchant_id();

CREATE INDEX subscriptions_merchant_created_idx ON subscriptions (merchant_id, created_at, id);
-- due_before listings are ordered by next_billing_date: the merchant's work list, soonest first.
CREATE INDEX subscriptions_merchant_due_idx ON subscriptions (merchant_id, next_billing_date, id);

-- Live merchants for the operator's `billing merchants list`.
CREATE INDEX merchants_live_created_idx ON merchants (created_at, id) WHERE deleted_at IS NULL;

-- Down Migration
DROP INDEX merchants_live_created_idx;
DROP INDEX subscriptions_merchant_due_idx;
DROP INDEX subscriptions_merchant_created_idx;
DROP TRIGGER subscriptions_set_merchant_id ON subscriptions;
DROP FUNCTION subscriptions_set_merchant_id();
ALTER TABLE subscriptions DROP COLUMN merchant_id;
CREATE INDEX subscriptions_plan_id_idx ON subscriptions (plan_id);
DROP INDEX subscriptions_plan_created_idx;
CREATE INDEX plans_merchant_id_idx ON plans (merchant_id);
DROP INDEX plans_merchant_created_idx;
