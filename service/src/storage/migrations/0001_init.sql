-- Up Migration
-- The three tables of the spec, column names = the spec's field names. The constraints are the
-- rules the spec expects the database to enforce, and their messages reach clients on 500:
--   a merchant_id that does not exist -> plans_merchant_id_fkey
--   the same wallet on the same plan twice -> subscriptions_customer_wallet_address_plan_id_key
-- They are named explicitly so those messages do not depend on PostgreSQL's naming rules.

CREATE TABLE merchants (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name           text NOT NULL CHECK (btrim(name) <> ''),
  wallet_address text NOT NULL CHECK (wallet_address ~ '^G[A-Z2-7]{55}$'),
  created_at     timestamptz NOT NULL DEFAULT now(),
  -- Soft delete: the row stays because plans and subscriptions keep pointing at it.
  deleted_at     timestamptz
);

CREATE TABLE plans (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  merchant_id      uuid NOT NULL,
  name             text NOT NULL CHECK (btrim(name) <> ''),
  -- numeric without a scale: stored exactly as sent, never rounded to fit.
  token_amount     numeric NOT NULL CHECK (token_amount > 0),
  -- bigint: the API accepts any safe integer of seconds, beyond int4's 68 years.
  interval_seconds bigint NOT NULL CHECK (interval_seconds > 0),
  created_at       timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT plans_merchant_id_fkey FOREIGN KEY (merchant_id) REFERENCES merchants (id)
);
CREATE INDEX plans_merchant_id_idx ON plans (merchant_id);

CREATE TABLE subscriptions (
  id                      uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  plan_id                 uuid NOT NULL,
  customer_wallet_address text NOT NULL CHECK (customer_wallet_address ~ '^G[A-Z2-7]{55}$'),
  status                  text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'past_due')),
  next_billing_date       timestamptz NOT NULL,
  created_at              timestamptz NOT NULL DEFAULT now(),
  updated_at              timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT subscriptions_plan_id_fkey FOREIGN KEY (plan_id) REFERENCES plans (id),
  CONSTRAINT subscriptions_customer_wallet_address_plan_id_key UNIQUE (customer_wallet_address, plan_id)
);
-- The unique index leads with the wallet; lookups by plan need their own.
CREATE INDEX subscriptions_plan_id_idx ON subscriptions (plan_id);

-- Down Migration
DROP TABLE subscriptions;
DROP TABLE plans;
DROP TABLE merchants;
