-- Integration of Fleet II and the operator console (issues 14 and 15).
--
-- Views:
--   reservation_readiness_view  owner reservations; read by operator (the ready_deadline_missed alert)
--   payment_economics_view      owner payments; read by operator (replaced: every credit counted as one)

-- When each reservation was due and when it first became running (null: not yet), for the
-- reservations that reached provisioning. The deadline is the operator's setting, applied by the reader.
CREATE VIEW reservation_readiness_view AS
  SELECT r.id AS reservation_id, r.host_id, r.status, r.due_at,
         (SELECT min(e.at) FROM reservation_events e
          WHERE e.reservation_id = r.id AND e.to_status = 'running') AS running_at
  FROM reservations r
  WHERE r.due_at IS NOT NULL;
COMMENT ON VIEW reservation_readiness_view IS 'owner: reservations; read by operator';

-- Credits are what the renter got without a fault of theirs being refunded: downtime and ready
-- guarantee credits, and the operator's goodwill credits (kind 'credit', booked to
-- contra_revenue:credits); refunds are the rest. Both contra-revenue accounts count.
CREATE OR REPLACE VIEW payment_economics_view AS
  SELECT p.id AS payment_id, p.reservation_id, p.extension_id, p.status, p.currency, p.amount,
         coalesce((SELECT -sum(e.amount) FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id
                   WHERE t.kind = 'charge' AND t.ref = p.payment_intent_id AND e.account LIKE 'revenue:%'), 0) AS revenue,
         coalesce((SELECT sum(e.amount) FROM refunds r
                   JOIN ledger_transactions t ON t.kind = 'refund' AND t.ref = r.stripe_refund_id
                   JOIN ledger_entries e ON e.transaction_id = t.id
                     AND e.account IN ('contra_revenue:refunds', 'contra_revenue:credits')
                   WHERE r.payment_id = p.id AND r.kind <> 'credit'
                     AND r.reason NOT IN ('downtime_credit', 'ready_credit')), 0) AS refunds,
         coalesce((SELECT sum(e.amount) FROM refunds r
                   JOIN ledger_transactions t ON t.kind = 'refund' AND t.ref = r.stripe_refund_id
                   JOIN ledger_entries e ON e.transaction_id = t.id
                     AND e.account IN ('contra_revenue:refunds', 'contra_revenue:credits')
                   WHERE r.payment_id = p.id AND (r.kind = 'credit'
                     OR r.reason IN ('downtime_credit', 'ready_credit'))), 0) AS credits,
         coalesce((SELECT sum(e.amount) FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id
                   WHERE t.kind = 'card_fee' AND t.ref = p.balance_transaction_id
                     AND e.account = 'expense:card_fees'), 0)
           AS card_fee,
         p.card_fee IS NOT NULL AS card_fee_known
  FROM payments p
  WHERE p.status IN ('succeeded', 'refunded');
COMMENT ON VIEW payment_economics_view IS 'owner: payments; read by operator';
