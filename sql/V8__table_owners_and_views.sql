-- Who owns which table, and the read-only views features publish for each other.
--
-- Each table has one owner: the only feature whose code writes it. Another feature that must read
-- it reads a *_view its owner publishes here; a view is a contract, changed like an API. The
-- owners are recorded as table comments (psql: \dt+), so the rule can be checked by a test:
--
--   platform      audit_log (features append through platform's AuditLog)
--   auth          accounts, identities, account_roles, api_tokens
--   catalog       gpu_models, sites, hosts, gpus, offers, prices
--   reservations  ssh_keys, reservations, reservation_events, reservation_gpus (created with the
--                 catalog in V3, written only by reservations), reservation_extensions,
--                 idempotency_keys
--   payments      stripe_customers, payments, stripe_events, ledger_transactions, ledger_entries,
--                 refunds
--   sandbox       the sandbox_stripe schema

COMMENT ON TABLE audit_log IS 'owner: platform';
COMMENT ON TABLE accounts IS 'owner: auth';
COMMENT ON TABLE identities IS 'owner: auth';
COMMENT ON TABLE account_roles IS 'owner: auth';
COMMENT ON TABLE api_tokens IS 'owner: auth';
COMMENT ON TABLE gpu_models IS 'owner: catalog';
COMMENT ON TABLE sites IS 'owner: catalog';
COMMENT ON TABLE hosts IS 'owner: catalog';
COMMENT ON TABLE gpus IS 'owner: catalog';
COMMENT ON TABLE offers IS 'owner: catalog';
COMMENT ON TABLE prices IS 'owner: catalog';
COMMENT ON TABLE ssh_keys IS 'owner: reservations';
COMMENT ON TABLE reservations IS 'owner: reservations';
COMMENT ON TABLE reservation_events IS 'owner: reservations';
COMMENT ON TABLE reservation_gpus IS 'owner: reservations';
COMMENT ON TABLE reservation_extensions IS 'owner: reservations';
COMMENT ON TABLE idempotency_keys IS 'owner: reservations';
COMMENT ON TABLE stripe_customers IS 'owner: payments';
COMMENT ON TABLE payments IS 'owner: payments';
COMMENT ON TABLE stripe_events IS 'owner: payments';
COMMENT ON TABLE ledger_transactions IS 'owner: payments';
COMMENT ON TABLE ledger_entries IS 'owner: payments';
COMMENT ON TABLE refunds IS 'owner: payments';
COMMENT ON TABLE sandbox_stripe.objects IS 'owner: sandbox';
COMMENT ON TABLE sandbox_stripe.idempotency_keys IS 'owner: sandbox';
COMMENT ON TABLE sandbox_stripe.events IS 'owner: sandbox';
COMMENT ON TABLE sandbox_stripe.deliveries IS 'owner: sandbox';
COMMENT ON TABLE sandbox_stripe.webhook_control IS 'owner: sandbox';

-- Published by reservations, read by the catalog: which GPU is taken when.
CREATE VIEW booked_gpus_view AS
  SELECT gpu_id, period FROM reservation_gpus WHERE active;
COMMENT ON VIEW booked_gpus_view IS 'owner: reservations; read by catalog';

-- Published by the catalog, read by reservations: each host's GPUs with the host's status, and
-- the host of each offer.
CREATE VIEW host_gpus_view AS
  SELECT g.host_id, h.status AS host_status, g.id AS gpu_id, g.idx
  FROM gpus g JOIN hosts h ON h.id = g.host_id;
COMMENT ON VIEW host_gpus_view IS 'owner: catalog; read by reservations';

CREATE VIEW offer_hosts_view AS
  SELECT id AS offer_id, host_id FROM offers;
COMMENT ON VIEW offer_hosts_view IS 'owner: catalog; read by reservations';

-- Published by reservations, read by payments: what a reservation or an extension costs, as locked
-- when it was made (the ledger splits a charge into these items).
CREATE VIEW payable_prices_view AS
  SELECT id AS reservation_id, NULL::text AS extension_id, price, currency, payment_method FROM reservations
  UNION ALL
  SELECT reservation_id, id, price, currency, payment_method FROM reservation_extensions;
COMMENT ON VIEW payable_prices_view IS 'owner: reservations; read by payments';

-- Published by payments, read by reservations: the payments made for each reservation and
-- extension, and their refunds.
CREATE VIEW reservation_payments_view AS
  SELECT id AS payment_id, reservation_id, extension_id, account_id, status, checkout_url, amount, amount_refunded,
         currency, failure_code, failure_message, created_at
  FROM payments;
COMMENT ON VIEW reservation_payments_view IS 'owner: payments; read by reservations';

CREATE VIEW reservation_refunds_view AS
  SELECT f.id, p.reservation_id, f.payment_id, f.amount, f.currency, f.reason, f.status, f.created_at
  FROM refunds f JOIN payments p ON p.id = f.payment_id;
COMMENT ON VIEW reservation_refunds_view IS 'owner: payments; read by reservations';

COMMENT ON VIEW schema_version IS 'owner: platform';
COMMENT ON VIEW ledger_problems IS 'owner: payments';
