-- The budget an account gives its new API tokens (and, later, its OAuth grants) unless one is
-- given with them (issue 21). Same caps as token_budgets; null: no cap.
CREATE TABLE account_default_budgets (
  account_id             text PRIMARY KEY REFERENCES accounts (id),
  currency               char(3) NOT NULL,
  daily_cap              bigint CHECK (daily_cap >= 0),
  monthly_cap            bigint CHECK (monthly_cap >= 0),
  total_cap              bigint CHECK (total_cap >= 0),
  max_price_per_gpu_hour bigint CHECK (max_price_per_gpu_hour > 0),
  max_hours              integer CHECK (max_hours > 0),
  approval_threshold     bigint CHECK (approval_threshold >= 0),
  updated_at             timestamptz NOT NULL DEFAULT now(),
  updated_by             text NOT NULL
);
COMMENT ON TABLE account_default_budgets IS 'owner: auth';
