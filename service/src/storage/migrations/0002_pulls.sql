-- Up Migration
-- One row per pull attempt, written and committed after signing and before sendTransaction,
-- so no transaction reaches the network unrecorded. The signed envelope is kept (it holds no
-- secret: only the merchant's signature) so an attempt can be re-sent or audited later.
CREATE TABLE pulls (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  subscription_id uuid NOT NULL REFERENCES subscriptions (id),
  merchant_id uuid NOT NULL REFERENCES merchants (id),
  amount numeric NOT NULL CHECK (amount > 0),
  tx_hash text NOT NULL UNIQUE,
  envelope_xdr text NOT NULL,
  source_account text NOT NULL,
  -- the transaction's time bound: it can never be included after this instant
  max_time timestamptz NOT NULL,
  -- pending: sent or about to be, outcome unknown; confirmed / failed: seen in a ledger;
  -- expired: never included before its time bound; rejected: refused at submission, never on chain
  status text NOT NULL CHECK (status IN ('pending', 'confirmed', 'failed', 'expired', 'rejected')),
  ledger integer,
  error text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  resolved_at timestamptz
);

-- At most one attempt in flight per subscription, across every process sharing the database:
-- a second INSERT of a pending row fails with a unique violation, which the pull verb reads as
-- "an attempt is already in flight". Unlike an advisory lock or a row lock, this needs no
-- connection held open across the network round trips, and it survives a crash: the pending
-- row itself is the in-flight marker until the reconciler resolves it.
CREATE UNIQUE INDEX pulls_one_pending_per_subscription ON pulls (subscription_id) WHERE status = 'pending';

-- History, newest first.
CREATE INDEX pulls_by_subscription ON pulls (subscription_id, created_at DESC, id DESC);

-- The reconciler's work list stays small and cheap to scan.
CREATE INDEX pulls_pending ON pulls (created_at) WHERE status = 'pending';

-- Down Migration
DROP TABLE pulls;
