-- The rest of the lifecycle (extensions, running instances), refunds, saved cards, and the
-- ledger check operators and tests run.

-- More hours on the same GPUs right after a reservation's end, quoted and paid like a reservation.
CREATE TABLE reservation_extensions (
  id               text PRIMARY KEY,                      -- ext_…
  reservation_id   text NOT NULL REFERENCES reservations (id),
  hours            integer NOT NULL CHECK (hours > 0),
  period           tstzrange NOT NULL CHECK (NOT isempty(period)),
  status           text NOT NULL CHECK (status IN ('pending_payment', 'confirmed', 'expired', 'cancelled')),
  hold_expires_at  timestamptz,
  quote_id         text NOT NULL,
  price            jsonb NOT NULL,
  total_amount     bigint NOT NULL CHECK (total_amount >= 0),
  currency         char(3) NOT NULL,
  payment_method   text NOT NULL CHECK (payment_method IN ('checkout', 'saved_card')),
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX reservation_extensions_reservation_idx ON reservation_extensions (reservation_id, created_at);
CREATE INDEX reservation_extensions_holds_idx ON reservation_extensions (hold_expires_at)
  WHERE status = 'pending_payment';

-- An extension holds the same GPUs again for its own period: one row per GPU and period.
ALTER TABLE reservation_gpus ADD COLUMN extension_id text REFERENCES reservation_extensions (id);
ALTER TABLE reservation_gpus DROP CONSTRAINT reservation_gpus_pkey;
CREATE UNIQUE INDEX reservation_gpus_base_key ON reservation_gpus (reservation_id, gpu_id) WHERE extension_id IS NULL;
CREATE UNIQUE INDEX reservation_gpus_extension_key ON reservation_gpus (extension_id, gpu_id) WHERE extension_id IS NOT NULL;
CREATE INDEX reservation_gpus_reservation_idx ON reservation_gpus (reservation_id);

-- The scheduler looks for windows starting and ending.
CREATE INDEX reservations_starting_idx ON reservations (lower(period)) WHERE status = 'confirmed';
CREATE INDEX reservations_ending_idx ON reservations (upper(period)) WHERE status IN ('confirmed', 'provisioning', 'running');

ALTER TABLE payments
  ADD COLUMN extension_id text REFERENCES reservation_extensions (id),
  ADD COLUMN failure_code text,
  ADD COLUMN failure_message text;
CREATE INDEX payments_account_idx ON payments (account_id, created_at DESC, id DESC);
CREATE INDEX payments_extension_idx ON payments (extension_id) WHERE extension_id IS NOT NULL;

-- A refund is written (pending) before Stripe is asked, and Stripe is asked with the refund's own
-- id as idempotency key: a crash between the two is finished by a retry, never doubled.
CREATE TABLE refunds (
  id                text PRIMARY KEY,                     -- rfd_…
  payment_id        text NOT NULL REFERENCES payments (id),
  amount            bigint NOT NULL CHECK (amount > 0),
  currency          char(3) NOT NULL,
  reason            text NOT NULL CHECK (reason IN ('cancellation', 'late_payment', 'downtime_credit', 'operator')),
  status            text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  stripe_refund_id  text UNIQUE,
  failure_message   text,
  attempts          integer NOT NULL DEFAULT 0,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX refunds_payment_idx ON refunds (payment_id);
CREATE INDEX refunds_pending_idx ON refunds (created_at) WHERE status = 'pending';

-- The card saved for off-session charges (Checkout in setup mode), shown as brand and last 4.
ALTER TABLE stripe_customers
  ADD COLUMN card_brand text,
  ADD COLUMN card_last4 text,
  ADD COLUMN card_exp_month integer,
  ADD COLUMN card_exp_year integer;

-- A saved-card reservation whose charge did not finish (crash, timeout) is finished by a retry
-- with the same key: the key remembers the payment it started.
ALTER TABLE idempotency_keys ADD COLUMN payment_id text;

-- Everything that would mean a lost or invented cent; empty when the books are right.
CREATE VIEW ledger_problems AS
  SELECT 'unbalanced_transaction' AS problem, t.kind || ':' || t.ref AS ref,
         'entries sum to ' || coalesce(sum(e.amount), 0) AS detail
  FROM ledger_transactions t LEFT JOIN ledger_entries e ON e.transaction_id = t.id
  GROUP BY t.id HAVING coalesce(sum(e.amount), 0) <> 0 OR count(e.id) = 0
  UNION ALL
  SELECT 'charge_not_in_ledger', p.payment_intent_id, 'payment ' || p.id || ' succeeded without one charge transaction'
  FROM payments p
  WHERE p.status IN ('succeeded', 'refunded')
    AND (SELECT count(*) FROM ledger_transactions t WHERE t.kind = 'charge' AND t.ref = p.payment_intent_id) <> 1
  UNION ALL
  SELECT 'charge_without_payment', t.ref, 'no succeeded payment has this payment intent'
  FROM ledger_transactions t
  WHERE t.kind = 'charge' AND NOT EXISTS (
    SELECT 1 FROM payments p WHERE p.payment_intent_id = t.ref AND p.status IN ('succeeded', 'refunded'))
  UNION ALL
  SELECT 'refund_not_in_ledger', r.stripe_refund_id, 'refund ' || r.id || ' succeeded without one refund transaction'
  FROM refunds r
  WHERE r.status = 'succeeded'
    AND (SELECT count(*) FROM ledger_transactions t WHERE t.kind = 'refund' AND t.ref = r.stripe_refund_id) <> 1
  UNION ALL
  SELECT 'refund_without_record', t.ref, 'no succeeded refund has this Stripe id'
  FROM ledger_transactions t
  WHERE t.kind = 'refund' AND NOT EXISTS (SELECT 1 FROM refunds r WHERE r.stripe_refund_id = t.ref
                                                                   AND r.status = 'succeeded')
  UNION ALL
  SELECT 'over_refunded', p.id, 'refunds ' || sum(r.amount) || ' exceed the captured ' || p.amount
  FROM payments p JOIN refunds r ON r.payment_id = p.id AND r.status <> 'failed'
  GROUP BY p.id HAVING sum(r.amount) > p.amount
  UNION ALL
  SELECT 'refund_not_done', r.id, 'refund of ' || r.amount || ' ' || r.status || ' since ' || r.created_at
         || coalesce(': ' || r.failure_message, '')
  FROM refunds r
  WHERE r.status = 'failed' OR (r.status = 'pending' AND r.created_at < now() - interval '1 hour')
  UNION ALL
  SELECT 'charge_amount_mismatch', p.payment_intent_id, 'payment ' || p.id || ' of ' || p.amount
         || ' but its ledger charge debits ' || coalesce(sum(e.amount), 0)
  FROM payments p JOIN ledger_transactions t ON t.kind = 'charge' AND t.ref = p.payment_intent_id
  LEFT JOIN ledger_entries e ON e.transaction_id = t.id AND e.account = 'asset:stripe_clearing' AND e.currency = p.currency
  GROUP BY p.id HAVING coalesce(sum(e.amount), 0) <> p.amount
  UNION ALL
  SELECT 'refunded_amount_mismatch', p.id, 'amount_refunded ' || p.amount_refunded || ' but succeeded refunds sum to '
         || coalesce((SELECT sum(r.amount) FROM refunds r WHERE r.payment_id = p.id AND r.status = 'succeeded'), 0)
  FROM payments p
  WHERE p.amount_refunded <> coalesce((SELECT sum(r.amount) FROM refunds r WHERE r.payment_id = p.id
                                                                        AND r.status = 'succeeded'), 0);
