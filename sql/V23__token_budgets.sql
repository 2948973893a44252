-- Budgets on API tokens (issue 21): what an agent holding a token may spend. Every cap is
-- optional (null: no cap); money in minor units of the account's currency.
CREATE TABLE token_budgets (
  token_id               text PRIMARY KEY REFERENCES api_tokens (id),
  currency               char(3) NOT NULL,
  daily_cap              bigint CHECK (daily_cap >= 0),
  monthly_cap            bigint CHECK (monthly_cap >= 0),
  total_cap              bigint CHECK (total_cap >= 0),
  max_price_per_gpu_hour bigint CHECK (max_price_per_gpu_hour > 0),
  max_hours              integer CHECK (max_hours > 0),
  -- above this quoted total a reservation waits for the owner's approval (awaiting_approval)
  approval_threshold     bigint CHECK (approval_threshold >= 0),
  updated_at             timestamptz NOT NULL DEFAULT now(),
  updated_by             text NOT NULL
);
COMMENT ON TABLE token_budgets IS 'owner: auth';

CREATE VIEW token_budgets_view AS
  SELECT token_id, currency, daily_cap, monthly_cap, total_cap, max_price_per_gpu_hour, max_hours,
         approval_threshold, updated_at
  FROM token_budgets;
COMMENT ON VIEW token_budgets_view IS 'owner: auth; read by reservations';

-- Which API token made a reservation or an extension (null: a person, signed in).
ALTER TABLE reservations ADD COLUMN token_id text;
ALTER TABLE reservation_extensions ADD COLUMN token_id text;
CREATE INDEX reservations_token_idx ON reservations (token_id) WHERE token_id IS NOT NULL;
CREATE INDEX reservation_extensions_token_idx ON reservation_extensions (token_id) WHERE token_id IS NOT NULL;

-- What each token has spent, one row per reservation or extension it made, dated when it was
-- made: the quoted total while it is held (pending payment), else what its payments captured,
-- less what was refunded (refunds and credits give budget back). Unpaid holds that lapsed or
-- were cancelled spend nothing.
CREATE VIEW token_spend_view AS
  SELECT r.token_id, r.id AS reservation_id, NULL::text AS extension_id, r.created_at AS at, r.currency,
         CASE WHEN r.status IN ('pending_payment', 'awaiting_approval') THEN r.total_amount
              ELSE coalesce((SELECT sum(p.amount - p.amount_refunded) FROM reservation_payments_view p
                             WHERE p.reservation_id = r.id AND p.extension_id IS NULL
                               AND p.status IN ('succeeded', 'refunded')), 0) END AS amount
  FROM reservations r WHERE r.token_id IS NOT NULL
  UNION ALL
  SELECT x.token_id, x.reservation_id, x.id, x.created_at, x.currency,
         CASE WHEN x.status = 'pending_payment' THEN x.total_amount
              ELSE coalesce((SELECT sum(p.amount - p.amount_refunded) FROM reservation_payments_view p
                             WHERE p.extension_id = x.id AND p.status IN ('succeeded', 'refunded')), 0) END
  FROM reservation_extensions x WHERE x.token_id IS NOT NULL;
COMMENT ON VIEW token_spend_view IS 'owner: reservations; read by reservations';

-- A reservation above its token's approval threshold waits for the owner, holding its GPUs (within
-- the hold's limit) and its pending payment: approved, it is paid; declined, released unpaid.
ALTER TABLE reservations DROP CONSTRAINT reservations_status_check;
ALTER TABLE reservations ADD CONSTRAINT reservations_status_check CHECK (status IN ('pending_payment',
  'awaiting_approval', 'confirmed', 'provisioning', 'running', 'completed', 'expired', 'cancelled', 'failed'));
CREATE INDEX reservations_approval_holds_idx ON reservations (hold_expires_at) WHERE status = 'awaiting_approval';
