-- Time-to-ready, measured and guaranteed (issue 14): when each instance was due, when its agent
-- got it and when it first ran; the ready guarantee and downtime credits, itemized per reservation.
--
-- Owners:
--   fleet         instances (gains due_at, delivered_at, running_at)
--   reservations  reservations (gains due_at, interrupted_since, interrupted_reason), reservation_credits
--   payments      refunds (its reason gains 'ready_credit')
-- Views:
--   time_to_ready_view, fleet_time_to_ready_view  owner fleet; read by catalog (and the operator's pages)

-- due_at: window start or payment, whichever is later (reservations computes it, the launch carries it);
-- delivered_at: the first desired-state answer to the host that held it; running_at: its first running report.
ALTER TABLE instances
  ADD COLUMN due_at       timestamptz,
  ADD COLUMN delivered_at timestamptz,
  ADD COLUMN running_at   timestamptz;
CREATE INDEX instances_running_at_idx ON instances (running_at) WHERE running_at IS NOT NULL;

-- Time-to-ready (running - due, never negative) of the instances that first ran in the last 30 days,
-- per host (an offer is one host's): samples, p50 and p95 in whole seconds (linear interpolation).
CREATE VIEW time_to_ready_view AS
  SELECT host_id, count(*) :: integer AS samples,
         round(percentile_cont(0.5) WITHIN GROUP (ORDER BY seconds)) :: integer AS p50_seconds,
         round(percentile_cont(0.95) WITHIN GROUP (ORDER BY seconds)) :: integer AS p95_seconds
  FROM (SELECT host_id, greatest(0, extract(epoch FROM running_at - due_at)) :: double precision AS seconds
        FROM instances WHERE due_at IS NOT NULL AND running_at > now() - interval '30 days') ready
  GROUP BY host_id;
COMMENT ON VIEW time_to_ready_view IS 'owner: fleet; read by catalog, operator';

-- The same over the whole fleet: one row (samples 0 and null percentiles when nothing ran yet).
CREATE VIEW fleet_time_to_ready_view AS
  SELECT count(*) :: integer AS samples,
         round(percentile_cont(0.5) WITHIN GROUP (ORDER BY seconds)) :: integer AS p50_seconds,
         round(percentile_cont(0.95) WITHIN GROUP (ORDER BY seconds)) :: integer AS p95_seconds
  FROM (SELECT greatest(0, extract(epoch FROM running_at - due_at)) :: double precision AS seconds
        FROM instances WHERE due_at IS NOT NULL AND running_at > now() - interval '30 days') ready;
COMMENT ON VIEW fleet_time_to_ready_view IS 'owner: fleet; read by catalog, operator';

-- due_at as the ready guarantee counts from it; an open interruption (host offline, GPU faulty).
ALTER TABLE reservations
  ADD COLUMN due_at             timestamptz,
  ADD COLUMN interrupted_since  timestamptz,
  ADD COLUMN interrupted_reason text;
CREATE INDEX reservations_interrupted_idx ON reservations (interrupted_since) WHERE interrupted_since IS NOT NULL;

-- Every credit a reservation earned without asking: what happened, over which time, how many hours
-- at which amount, and the refunds (payments) that moved the money. One per event: a repeated
-- report finds its credit and credits nothing twice.
CREATE TABLE reservation_credits (
  id              text PRIMARY KEY,                                  -- crd_…
  reservation_id  text NOT NULL REFERENCES reservations (id),
  kind            text NOT NULL CHECK (kind IN ('ready_late', 'never_ready', 'downtime', 'host_failed')),
  reason          text NOT NULL,
  from_at         timestamptz NOT NULL,
  to_at           timestamptz NOT NULL,
  hours           integer NOT NULL CHECK (hours >= 0),
  amount          bigint NOT NULL CHECK (amount >= 0),
  currency        char(3) NOT NULL,
  refund_ids      text[] NOT NULL DEFAULT '{}',
  created_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (reservation_id, kind, from_at)
);
COMMENT ON TABLE reservation_credits IS 'owner: reservations';

ALTER TABLE refunds DROP CONSTRAINT refunds_reason_check;
ALTER TABLE refunds ADD CONSTRAINT refunds_reason_check
  CHECK (reason IN ('cancellation', 'late_payment', 'downtime_credit', 'operator', 'ready_credit'));
