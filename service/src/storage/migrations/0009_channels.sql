-- Up Migration
-- Channel accounts: service-owned Stellar accounts used as the source of pull transactions, so one
-- merchant's pulls no longer share the merchant's sequence number (issue 14). The secret is sealed
-- like a signing key (AES-256-GCM under SIGNING_KEY_ENCRYPTION_KEY, bound to the channel's public
-- key); it is never stored in any other form.
--
-- The lease (service/docs/channels.md has the whole argument): a transaction is built only under a
-- lease, and a lease is taken with one conditional UPDATE, so two holders never share a channel.
-- lease_max_time is in the NETWORK's time (unix seconds of ledger close time, what core checks a
-- transaction's maxTime against): every transaction built under the lease has maxTime <= it.
-- A lease ends when its holder releases it (the transaction was included, or refused before it was
-- queued), or — for a holder that crashed or lost the answer — once the network's time has passed
-- lease_max_time, when no transaction built under it can be included any more.
CREATE TABLE channels (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  public_key     text NOT NULL UNIQUE CHECK (public_key ~ '^G[A-Z2-7]{55}$'),
  kek_id         text NOT NULL,
  ciphertext     text NOT NULL,
  -- The holder (one process's random id); NULL when free.
  leased_by      text,
  lease_max_time bigint,
  -- The hash sendTransaction knows the leased transaction by (set before it is sent).
  tx_hash        text,
  -- The highest sequence number a transaction of this channel was seen to consume: a lease uses
  -- the larger of this and the network's, so an RPC a ledger behind cannot hand out a used number.
  last_sequence  bigint,
  leased_at      timestamptz,
  created_at     timestamptz NOT NULL DEFAULT now(),
  CHECK ((leased_by IS NULL) = (lease_max_time IS NULL))
);
-- Release by the hash the confirmation saw.
CREATE INDEX channels_tx_hash_idx ON channels (tx_hash) WHERE tx_hash IS NOT NULL;

-- Client-side signing (product.md): a prepared pull is the subscription's attempt in flight until it
-- is submitted (it then becomes a pull attempt) or expires. At most one open per subscription.
CREATE TABLE prepared_pulls (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  subscription_id uuid NOT NULL REFERENCES subscriptions (id),
  merchant_id     uuid NOT NULL REFERENCES merchants (id),
  -- prepared: awaiting the signature; submitted: became pull_id; expired: never signed in time
  status          text NOT NULL CHECK (status IN ('prepared', 'submitted', 'expired')),
  -- The unsigned SorobanAuthorizationEntry (base64 XDR) with its expiration ledger set.
  auth_entry_xdr  text NOT NULL,
  preimage_xdr    text NOT NULL,
  hash            text NOT NULL CHECK (hash ~ '^[0-9a-f]{64}$'),
  signature_expiration_ledger integer NOT NULL,
  expires_at      timestamptz NOT NULL,
  pull_id         uuid REFERENCES pulls (id),
  origin          text NOT NULL DEFAULT 'manual',
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL
);
CREATE UNIQUE INDEX prepared_pulls_one_open ON prepared_pulls (subscription_id) WHERE status = 'prepared';

-- Down Migration
DROP TABLE prepared_pulls;
DROP TABLE channels;
