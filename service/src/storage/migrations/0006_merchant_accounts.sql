-- Up Migration
-- Merchant accounts: API keys and stored signing keys. (0005 is taken by the chain work.)

-- A merchant's API keys. The key itself is never stored: key_hash is its SHA-256 in hex, which
-- authentication looks up by equality (the key has 256 random bits, so a fast hash is enough).
-- prefix is the key's first characters, to tell keys apart in a list.
CREATE TABLE api_keys (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  merchant_id  uuid NOT NULL REFERENCES merchants (id),
  key_hash     text NOT NULL CHECK (key_hash ~ '^[0-9a-f]{64}$'),
  prefix       text NOT NULL,
  label        text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  -- Coalesced in memory and written at most about every 30 s per replica (key-usage.ts).
  last_used_at timestamptz,
  revoked_at   timestamptz,
  CONSTRAINT api_keys_key_hash_key UNIQUE (key_hash)
);
-- A merchant's live keys, oldest first: the listing and revocation read this, never the history.
CREATE INDEX api_keys_merchant_live_idx ON api_keys (merchant_id, created_at, id) WHERE revoked_at IS NULL;

-- At most one stored signing key per merchant, sealed with AES-256-GCM under the key-encryption
-- key named by kek_id (SIGNING_KEY_ENCRYPTION_KEY); ciphertext is base64 of nonce, tag and
-- ciphertext. The secret is never stored in any other form.
CREATE TABLE signing_keys (
  merchant_id uuid PRIMARY KEY REFERENCES merchants (id),
  public_key  text NOT NULL CHECK (public_key ~ '^G[A-Z2-7]{55}$'),
  kek_id      text NOT NULL,
  ciphertext  text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
-- `billing signing-key rotate-kek` looks for keys not yet under the primary KEK.
CREATE INDEX signing_keys_kek_idx ON signing_keys (kek_id, merchant_id);

-- Down Migration
DROP TABLE signing_keys;
DROP TABLE api_keys;
