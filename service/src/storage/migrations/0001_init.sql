-- Up Migration
CREATE TABLE merchants (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL
);
-- Down Migration
DROP TABLE merchants;
