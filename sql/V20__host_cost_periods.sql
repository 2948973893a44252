-- A host's costs over time: each row applies from effective_from (a whole UTC hour, or -infinity:
-- since the host joined) until the next row of the host, so a new electricity price changes the
-- economics from its hour on and never re-prices the past. Replaces host_costs (one row per host).
CREATE TABLE host_cost_periods (
  host_id                    text NOT NULL REFERENCES hosts (id),
  effective_from             timestamptz NOT NULL
                             CHECK (CASE WHEN isfinite(effective_from) THEN extract(epoch FROM effective_from) % 3600 = 0
                                         ELSE effective_from = '-infinity' END),
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
  updated_by                 text NOT NULL,
  PRIMARY KEY (host_id, effective_from)
);
COMMENT ON TABLE host_cost_periods IS 'owner: operator';

INSERT INTO host_cost_periods (host_id, effective_from, currency, purchase_price, depreciation_months,
                               residual_value, electricity_price_per_kwh, pue, colocation_per_month,
                               bandwidth_per_month, maintenance_per_month, financing_per_month, updated_at,
                               updated_by)
  SELECT host_id, '-infinity', currency, purchase_price, depreciation_months, residual_value,
         electricity_price_per_kwh, pue, colocation_per_month, bandwidth_per_month, maintenance_per_month,
         financing_per_month, updated_at, updated_by
  FROM host_costs;
DROP TABLE host_costs;
