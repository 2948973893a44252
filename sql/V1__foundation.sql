-- Foundations every feature builds on.

-- Exclusion constraints over (gpu_id WITH =, period WITH &&) need btree_gist.
CREATE EXTENSION IF NOT EXISTS btree_gist;

-- The schema version this database is at, readable by people and tools (psql: TABLE schema_version).
CREATE VIEW schema_version AS
  SELECT version, description, installed_on
  FROM flyway_schema_history
  WHERE success AND version IS NOT NULL
  ORDER BY installed_rank DESC
  LIMIT 1;

-- Who did what to which object, with the state before and after. Append-only.
CREATE TABLE audit_log (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at         timestamptz NOT NULL DEFAULT now(),
  actor      text        NOT NULL,
  action     text        NOT NULL,
  target     text,
  before     jsonb,
  after      jsonb
);
CREATE INDEX audit_log_at_idx ON audit_log (at);
CREATE INDEX audit_log_target_idx ON audit_log (target, at);
