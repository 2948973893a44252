-- Operator economics: what each host costs the operator, the card fee Stripe kept on each charge
-- (from its balance transaction), and the views the operator's economics reads.
--
-- Owners:
--   operator   host_costs
--   payments   payments (gains balance_transaction_id, card_fee; the fee is also in the ledger)
-- Views:
--   payment_economics_view      payments -> operator (revenue, refunds, credits, card fee per payment, from the ledger)
--   reservation_bookings_view   reservations -> operator (GPUs booked per reservation and extension, with host and offer)
--   offer_economics_view        catalog -> operator (each offer's host, model, site, when it was open, its list price now)
--   gpu_model_prices_view       catalog -> operator (the reference market prices of each GPU model)

-- Entered by the operator per host. Money in minor units of one currency; PUE (power usage
-- effectiveness: facility power / IT power) is the cooling and distribution overhead, >= 1.
CREATE TABLE host_costs (
  host_id                    text PRIMARY KEY REFERENCES hosts (id),
  currency                   char(3) NOT NULL,
  purchase_price             bigint NOT NULL CHECK (purchase_price >= 0),
  depreciation_months        integer NOT NULL CHECK (depreciation_months BETWEEN 1 AND 600),
  residual_value             bigint NOT NULL CHECK (residual_value >= 0 AND residual_value <= purchase_price),
  electricity_price_per_kwh  bigint NOT NULL CHECK (electricity_price_per_kwh >= 0),
  pue                        numeric(5, 3) NOT NULL CHECK (pue >= 1 AND pue <= 10),
  colocation_per_month       bigint NOT NULL CHECK (colocation_per_month >= 0),
  bandwidth_per_month        bigint NOT NULL CHECK (bandwidth_per_month >= 0),
  maintenance_per_month      bigint NOT NULL CHECK (maintenance_per_month >= 0),
  financing_per_month        bigint CHECK (financing_per_month >= 0),   -- null: not financed
  updated_at                 timestamptz NOT NULL DEFAULT now(),
  updated_by                 text NOT NULL
);
COMMENT ON TABLE host_costs IS 'owner: operator';

-- The Stripe balance transaction of the charge, and the fee Stripe kept (null until fetched).
ALTER TABLE payments
  ADD COLUMN balance_transaction_id text,
  ADD COLUMN card_fee bigint CHECK (card_fee >= 0);
CREATE INDEX payments_fee_missing_idx ON payments (created_at)
  WHERE card_fee IS NULL AND status IN ('succeeded', 'refunded');

-- Published by payments: per payment what the ledger booked as revenue (GPU hours and platform
-- fee, tax excluded), refunded (downtime credits apart) and paid Stripe as card fee.
CREATE VIEW payment_economics_view AS
  SELECT p.id AS payment_id, p.reservation_id, p.extension_id, p.status, p.currency, p.amount,
         coalesce((SELECT -sum(e.amount) FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id
                   WHERE t.kind = 'charge' AND t.ref = p.payment_intent_id AND e.account LIKE 'revenue:%'), 0) AS revenue,
         coalesce((SELECT sum(e.amount) FROM refunds r
                   JOIN ledger_transactions t ON t.kind = 'refund' AND t.ref = r.stripe_refund_id
                   JOIN ledger_entries e ON e.transaction_id = t.id AND e.account = 'contra_revenue:refunds'
                   WHERE r.payment_id = p.id AND r.reason <> 'downtime_credit'), 0) AS refunds,
         coalesce((SELECT sum(e.amount) FROM refunds r
                   JOIN ledger_transactions t ON t.kind = 'refund' AND t.ref = r.stripe_refund_id
                   JOIN ledger_entries e ON e.transaction_id = t.id AND e.account = 'contra_revenue:refunds'
                   WHERE r.payment_id = p.id AND r.reason = 'downtime_credit'), 0) AS credits,
         coalesce((SELECT sum(e.amount) FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id
                   WHERE t.kind = 'card_fee' AND t.ref = p.balance_transaction_id
                     AND e.account = 'expense:card_fees'), 0)
           AS card_fee,
         p.card_fee IS NOT NULL AS card_fee_known
  FROM payments p
  WHERE p.status IN ('succeeded', 'refunded');
COMMENT ON VIEW payment_economics_view IS 'owner: payments; read by operator';

-- Published by reservations: the GPUs each reservation and each extension booked, for when, and
-- whether those hours count as sold (paid and not given up).
CREATE VIEW reservation_bookings_view AS
  SELECT r.id AS reservation_id, NULL::text AS extension_id, r.host_id, r.offer_id, r.gpu_count, r.period,
         r.status IN ('confirmed', 'provisioning', 'running', 'completed') AS booked
  FROM reservations r
  UNION ALL
  SELECT r.id, x.id, r.host_id, r.offer_id, r.gpu_count, x.period,
         x.status = 'confirmed' AND r.status IN ('confirmed', 'provisioning', 'running', 'completed')
  FROM reservation_extensions x JOIN reservations r ON r.id = x.reservation_id;
COMMENT ON VIEW reservation_bookings_view IS 'owner: reservations; read by operator';

-- Published by the catalog: each offer with its host, GPU model, site, the time it was open, and
-- its list price per GPU-hour now (its own price, else the model-and-site default).
CREATE VIEW offer_economics_view AS
  SELECT o.id AS offer_id, o.host_id, h.name AS host_name, h.site_id, h.site_name, h.gpu_model, h.gpu_count,
         o.created_at AS opened_at, o.closed_at,
         p.amount_per_gpu_hour AS list_price, p.currency AS list_currency
  FROM offers o
  JOIN fleet_hosts_view h ON h.id = o.host_id
  LEFT JOIN LATERAL (SELECT amount_per_gpu_hour, currency FROM prices
                     WHERE (offer_id = o.id OR (offer_id IS NULL AND gpu_model = h.gpu_model AND site_id = h.site_id))
                       AND effective_from <= now()
                     ORDER BY offer_id IS NULL, effective_from DESC LIMIT 1) p ON true;
COMMENT ON VIEW offer_economics_view IS 'owner: catalog; read by operator';

CREATE VIEW gpu_model_prices_view AS
  SELECT name, hyperscaler_price_minor, hyperscaler_source, specialized_price_minor, specialized_source,
         reference_currency, reference_as_of
  FROM gpu_models;
COMMENT ON VIEW gpu_model_prices_view IS 'owner: catalog; read by operator';
