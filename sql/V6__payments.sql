-- Card payments through Stripe and the double-entry ledger that accounts for every cent.

CREATE TABLE stripe_customers (
  account_id               text PRIMARY KEY REFERENCES accounts (id),
  customer_id              text NOT NULL UNIQUE,
  default_payment_method   text,
  created_at               timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE payments (
  id                   text PRIMARY KEY,                 -- pay_…
  reservation_id       text NOT NULL REFERENCES reservations (id),
  account_id           text NOT NULL REFERENCES accounts (id),
  kind                 text NOT NULL CHECK (kind IN ('charge')),
  checkout_session_id  text UNIQUE,
  checkout_url         text,
  payment_intent_id    text UNIQUE,
  amount               bigint NOT NULL CHECK (amount >= 0),
  amount_refunded      bigint NOT NULL DEFAULT 0 CHECK (amount_refunded >= 0 AND amount_refunded <= amount),
  currency             char(3) NOT NULL,
  status               text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed', 'refunded', 'canceled')),
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX payments_reservation_idx ON payments (reservation_id);

-- Each Stripe event is applied once, in the transaction of its effects.
CREATE TABLE stripe_events (
  id            text PRIMARY KEY,                        -- evt_…
  type          text NOT NULL,
  received_at   timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE ledger_transactions (
  id    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind  text NOT NULL,                                   -- 'charge', 'refund', …
  ref   text NOT NULL,                                   -- the Stripe object it records (pi_…, re_…)
  at    timestamptz NOT NULL DEFAULT now(),
  UNIQUE (kind, ref)
);

-- Debits positive, credits negative: every transaction sums to zero (checked at commit).
CREATE TABLE ledger_entries (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  transaction_id  bigint NOT NULL REFERENCES ledger_transactions (id),
  account         text NOT NULL,                          -- e.g. 'asset:stripe_clearing', 'revenue:gpu_hours'
  amount          bigint NOT NULL,
  currency        char(3) NOT NULL
);
CREATE INDEX ledger_entries_transaction_idx ON ledger_entries (transaction_id);

CREATE FUNCTION ledger_transaction_balances() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (SELECT coalesce(sum(amount), 0) FROM ledger_entries WHERE transaction_id = NEW.transaction_id) <> 0 THEN
    RAISE EXCEPTION 'ledger transaction % does not balance', NEW.transaction_id;
  END IF;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER ledger_entries_balance AFTER INSERT OR UPDATE ON ledger_entries
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_transaction_balances();
