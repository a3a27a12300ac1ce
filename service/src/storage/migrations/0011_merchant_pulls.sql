-- Up Migration
-- GET /merchants/{id}/pulls pages a merchant's pulls oldest first by (created_at, id), the keyset's
-- own order, and its daily totals read a created_at range of one merchant: one range scan each.
CREATE INDEX pulls_by_merchant ON pulls (merchant_id, created_at, id);

-- Down Migration
DROP INDEX pulls_by_merchant;
