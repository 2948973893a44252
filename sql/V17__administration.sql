-- Administration by the operator: suspended accounts, manual refunds and credits with a reason,
-- the reconciler's run history, and the views the operator console reads.

-- A suspended account keeps its tokens and sessions, but none of them is accepted while it is
-- suspended (and sign-in is refused); lifting the suspension restores them.
ALTER TABLE accounts
  ADD COLUMN suspended_at timestamptz,
  ADD COLUMN suspension_reason text,
  ADD COLUMN suspended_by text,
  ADD CONSTRAINT accounts_suspension_has_reason CHECK (suspended_at IS NULL OR suspension_reason IS NOT NULL);

-- Published by auth, read by operator: who an account is, for lists of other things (reservations).
CREATE VIEW account_names_view AS
  SELECT id AS account_id, display_name, primary_email, suspended_at FROM accounts;
COMMENT ON VIEW account_names_view IS 'owner: auth; read by operator';

-- A manual refund or credit an operator asked for: one request (with its Idempotency-Key) may be
-- spread over several refunds, one per payment of the reservation it takes from.
CREATE TABLE refund_requests (
  id               text PRIMARY KEY,                      -- rrq_…
  reservation_id   text NOT NULL REFERENCES reservations (id),
  kind             text NOT NULL CHECK (kind IN ('refund', 'credit')),
  amount           bigint NOT NULL CHECK (amount > 0),
  currency         char(3) NOT NULL,
  note             text NOT NULL,
  requested_by     text NOT NULL,                         -- the operator's account id
  idempotency_key  text NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  UNIQUE (requested_by, idempotency_key)
);
COMMENT ON TABLE refund_requests IS 'owner: payments';

-- Refunds keep whether they give money back for what was not delivered (refund) or as goodwill
-- (credit, its own contra-revenue account in the ledger), and the operator's words to the renter.
ALTER TABLE refunds
  ADD COLUMN kind text NOT NULL DEFAULT 'refund' CHECK (kind IN ('refund', 'credit')),
  ADD COLUMN note text,
  ADD COLUMN request_id text REFERENCES refund_requests (id);
CREATE INDEX refunds_request_idx ON refunds (request_id) WHERE request_id IS NOT NULL;

-- Columns appended (a view is a contract): renters see the kind and the operator's note.
CREATE OR REPLACE VIEW reservation_refunds_view AS
  SELECT f.id, p.reservation_id, f.payment_id, f.amount, f.currency, f.reason, f.status, f.created_at,
         f.kind, f.note
  FROM refunds f JOIN payments p ON p.id = f.payment_id;

-- One row per reconciliation run (any node), so every node can tell how the last ones went.
CREATE TABLE reconciler_runs (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  started_at       timestamptz NOT NULL,
  finished_at      timestamptz NOT NULL DEFAULT now(),
  refunds_retried  integer NOT NULL,
  events_missed    integer NOT NULL,
  events_applied   integer NOT NULL,
  events_failed    integer NOT NULL,
  error            text
);
CREATE INDEX reconciler_runs_failed_idx ON reconciler_runs (id) WHERE error IS NOT NULL OR events_failed > 0;
COMMENT ON TABLE reconciler_runs IS 'owner: payments';

-- Published by reservations, read by operator: every renter's reservations with what was paid.
CREATE VIEW operator_reservations_view AS
  SELECT r.id, r.account_id, r.offer_id, r.host_id, r.gpu_count, lower(r.period) AS start_at,
         upper(r.period) AS end_at, r.status, r.total_amount, r.currency, r.payment_method, r.created_at,
         coalesce((SELECT sum(p.amount) FROM reservation_payments_view p
                   WHERE p.reservation_id = r.id AND p.status IN ('succeeded', 'refunded')), 0) AS amount_paid,
         coalesce((SELECT sum(f.amount) FROM reservation_refunds_view f
                   WHERE f.reservation_id = r.id AND f.status <> 'failed'), 0) AS amount_refunded
  FROM reservations r;
COMMENT ON VIEW operator_reservations_view IS 'owner: reservations; read by operator';
CREATE INDEX reservations_created_idx ON reservations (created_at DESC, id DESC);
CREATE INDEX reservations_host_idx ON reservations (host_id, created_at DESC, id DESC);
