-- Up Migration
-- A plan names the token its price is in; the vault's token is checked against it before a pull.
-- NULL: no token named (neither on the plan nor DEFAULT_TOKEN_CONTRACT_ID at creation).
ALTER TABLE plans ADD COLUMN token_contract_id text CHECK (token_contract_id ~ '^C[A-Z2-7]{55}$');

-- What a confirmed pull actually moved, read from the token's transfer event (not assumed from
-- the plan), the fee it cost, and for a fee-bump envelope the inner transaction's hash.
ALTER TABLE pulls
  ADD COLUMN transferred_amount numeric,
  ADD COLUMN token_contract_id text,
  ADD COLUMN fee_charged bigint,
  ADD COLUMN inner_tx_hash text,
  -- set when a confirmation differs from the plan (another amount or token, or no transfer seen)
  ADD COLUMN discrepancy text,
  -- the latest ledger when the attempt was simulated: it cannot be in this ledger or an earlier
  -- one, so an RPC whose oldest ledger is at most min_ledger + 1 still knows its whole story
  ADD COLUMN min_ledger integer;

-- Down Migration
ALTER TABLE pulls DROP COLUMN min_ledger, DROP COLUMN discrepancy, DROP COLUMN inner_tx_hash,
  DROP COLUMN fee_charged, DROP COLUMN token_contract_id, DROP COLUMN transferred_amount;
ALTER TABLE plans DROP COLUMN token_contract_id;
