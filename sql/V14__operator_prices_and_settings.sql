-- Operator console: the one rule for which price applies to an offer, and the operator's terms of
-- sale (duration discounts, platform fee, tax, cancellation fee) in the database.
--
-- Owners:
--   pricing   pricing_settings (seeded once from conf/gateway.yaml pricing.* and
--             reservations.cancellation_fee_bps; after that the operator's values win)
-- Views:
--   offer_prices_view   catalog -> catalog (search, quotes), operator (prices, economics)

-- The price that applies to an offer now: its own latest effective price, else the latest
-- effective default for its GPU model at its site. Scheduled (future) prices never apply early.
CREATE VIEW offer_prices_view AS
  SELECT o.id AS offer_id, p.id AS price_id, (p.offer_id IS NOT NULL) AS own_price,
         p.amount_per_gpu_hour, p.currency, p.effective_from, p.set_by
  FROM offers o
  JOIN fleet_hosts_view h ON h.id = o.host_id
  JOIN LATERAL (SELECT id, offer_id, amount_per_gpu_hour, currency, effective_from, set_by FROM prices
                WHERE (offer_id = o.id OR (offer_id IS NULL AND gpu_model = h.gpu_model AND site_id = h.site_id))
                  AND effective_from <= now()
                -- the offer's own price wins over the model-and-site default
                ORDER BY offer_id IS NULL, effective_from DESC, id DESC LIMIT 1) p ON true;
COMMENT ON VIEW offer_prices_view IS 'owner: catalog; read by catalog, operator';

-- One row: the terms every new quote is priced with. A quote (and so a reservation) keeps the
-- terms it was given; changing them here changes only quotes issued afterwards.
CREATE TABLE pricing_settings (
  id                    boolean PRIMARY KEY DEFAULT true CHECK (id),
  duration_discounts    jsonb NOT NULL CHECK (jsonb_typeof(duration_discounts) = 'array'), -- [{"min_hours": 24, "bps": 500}]
  platform_fee_bps      integer NOT NULL CHECK (platform_fee_bps BETWEEN 0 AND 10000),
  tax_bps               integer NOT NULL CHECK (tax_bps BETWEEN 0 AND 10000),
  cancellation_fee_bps  integer NOT NULL CHECK (cancellation_fee_bps BETWEEN 0 AND 10000),
  updated_at            timestamptz NOT NULL DEFAULT now(),
  updated_by            text NOT NULL
);
COMMENT ON TABLE pricing_settings IS 'owner: pricing';

-- The operator's list of scheduled prices reads prices by time.
CREATE INDEX prices_effective_idx ON prices (effective_from);
