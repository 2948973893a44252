-- Alerts: incidents that rules open and resolve, and the notifications sent for each transition.
--
-- Owners:
--   operator  alert_incidents, alert_deliveries, alert_delivery_attempts
--   platform  cluster_job_runs (the last outcome of watched cluster jobs, written by platform.jobs.ClusterJobs)
-- Views (read by operator's alert rules):
--   cluster_job_runs_view     platform -> operator (reconciliation failing)
--   ledger_problems_view      payments -> operator (ledger problem; the same rows as ledger_problems)
--   failed_refunds_view       payments -> operator (refund failed)
--   provisioning_failures_view  reservations -> operator (provisioning failed)
-- Read when present (the rules are inactive until then; see operator.alerts.AlertRules):
--   fleet_gpus_view.health    'healthy' | 'degraded' | 'faulty', added by the fleet's GPU health (V11)
--   ready_deadline_misses_view(reservation_id, host_id, missed_at), to be published with the
--                             ready-time guarantee's credits (V13)

-- One incident per (rule, target) while its condition holds: the partial unique index is what
-- keeps two evaluations (two nodes, or a retry) from opening a second one.
CREATE TABLE alert_incidents (
  id            text PRIMARY KEY,                                -- inc_…
  rule          text NOT NULL,
  target        text NOT NULL,                                   -- host_…, rsv_…, rfd_…, a job or a ledger ref
  status        text NOT NULL CHECK (status IN ('open', 'resolved')),
  opened_at     timestamptz NOT NULL DEFAULT now(),
  last_seen_at  timestamptz NOT NULL DEFAULT now(),
  resolved_at   timestamptz,
  details       jsonb NOT NULL DEFAULT '{}',
  CHECK ((status = 'resolved') = (resolved_at IS NOT NULL))
);
CREATE UNIQUE INDEX alert_incidents_open_key ON alert_incidents (rule, target) WHERE status = 'open';
CREATE INDEX alert_incidents_list_idx ON alert_incidents (opened_at DESC, id DESC);
COMMENT ON TABLE alert_incidents IS 'owner: operator';

-- One notification per incident transition and channel (the unique key makes it exactly one);
-- a cluster job sends it, retrying with backoff until delivered or out of attempts.
CREATE TABLE alert_deliveries (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  incident_id       text NOT NULL REFERENCES alert_incidents (id),
  transition        text NOT NULL CHECK (transition IN ('opened', 'resolved')),
  channel           text NOT NULL CHECK (channel IN ('webhook', 'email')),
  status            text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts          integer NOT NULL DEFAULT 0,
  next_attempt_at   timestamptz NOT NULL DEFAULT now(),
  last_status_code  integer,
  last_error        text,
  delivered_at      timestamptz,
  created_at        timestamptz NOT NULL DEFAULT now(),
  UNIQUE (incident_id, transition, channel)
);
CREATE INDEX alert_deliveries_due_idx ON alert_deliveries (next_attempt_at) WHERE status = 'pending';
COMMENT ON TABLE alert_deliveries IS 'owner: operator';

-- The delivery log: every attempt, its HTTP status (webhooks) and its error.
CREATE TABLE alert_delivery_attempts (
  delivery_id      bigint NOT NULL REFERENCES alert_deliveries (id),
  attempt          integer NOT NULL,
  at               timestamptz NOT NULL DEFAULT now(),
  status_code      integer,
  error            text,
  next_attempt_at  timestamptz,                                  -- null: delivered or given up
  PRIMARY KEY (delivery_id, attempt)
);
COMMENT ON TABLE alert_delivery_attempts IS 'owner: operator';

-- A watched cluster job's last outcome, cluster-wide (whichever node ran it).
CREATE TABLE cluster_job_runs (
  job                   text PRIMARY KEY,
  last_run_at           timestamptz NOT NULL,
  last_ok_at            timestamptz,
  last_failed_at        timestamptz,
  last_error            text,
  consecutive_failures  integer NOT NULL DEFAULT 0
);
COMMENT ON TABLE cluster_job_runs IS 'owner: platform';

CREATE VIEW cluster_job_runs_view AS
  SELECT job, last_run_at, last_ok_at, last_failed_at, last_error, consecutive_failures FROM cluster_job_runs;
COMMENT ON VIEW cluster_job_runs_view IS 'owner: platform; read by operator';

CREATE VIEW ledger_problems_view AS
  SELECT problem, ref, detail FROM ledger_problems;
COMMENT ON VIEW ledger_problems_view IS 'owner: payments; read by operator';

CREATE VIEW failed_refunds_view AS
  SELECT f.id AS refund_id, f.payment_id, p.reservation_id, f.amount, f.currency, f.reason, f.failure_message,
         f.updated_at
  FROM refunds f JOIN payments p ON p.id = f.payment_id
  WHERE f.status = 'failed';
COMMENT ON VIEW failed_refunds_view IS 'owner: payments; read by operator';

-- A reservation whose host agent reported its instance failed (reservations.HostFailures records
-- the move to failed with the cause 'host failure: <reason>; …').
CREATE VIEW provisioning_failures_view AS
  SELECT e.reservation_id, r.host_id, e.at AS failed_at, e.cause
  FROM reservation_events e JOIN reservations r ON r.id = e.reservation_id
  WHERE e.to_status = 'failed' AND e.cause LIKE 'host failure:%';
COMMENT ON VIEW provisioning_failures_view IS 'owner: reservations; read by operator';
