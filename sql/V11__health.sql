-- Fleet II: health. A GPU is healthy, degraded (too hot for too long) or faulty (uncorrected ECC
-- errors, failed row remapping); a host is degraded while its disk is nearly full. Both return to
-- healthy only after a clean period without a violation (fleet.health in conf/gateway.yaml).
--
-- Owners:
--   fleet   gpu_health (new), hosts (gains 'degraded' and its reason)
-- Views:
--   fleet_gpus_view   fleet -> catalog, reservations, operator (gains health)
--   host_gpus_view    fleet -> reservations (gains health: only healthy GPUs are booked)

-- One state machine (fleet.GpuHealth): healthy -> degraded | faulty, degraded -> faulty | healthy,
-- faulty -> healthy; the counters below are what the rules need from earlier samples.
CREATE TABLE gpu_health (
  gpu_id             text PRIMARY KEY REFERENCES gpus (id),
  status             text NOT NULL DEFAULT 'healthy' CHECK (status IN ('healthy', 'degraded', 'faulty')),
  reason             text,
  since              timestamptz NOT NULL DEFAULT now(),
  hot_samples        integer NOT NULL DEFAULT 0,      -- consecutive samples above the temperature limit
  last_violation_at  timestamptz,                     -- the clean period counts from here
  ecc_uncorrected    bigint                           -- the last count seen, to notice an increase
);
COMMENT ON TABLE gpu_health IS 'owner: fleet';

-- One lifecycle (fleet.HostLifecycle) gains degraded: active <-> degraded, degraded -> offline / deactivated.
ALTER TABLE hosts DROP CONSTRAINT hosts_status_check;
ALTER TABLE hosts ADD CONSTRAINT hosts_status_check
  CHECK (status IN ('enrolling', 'pending', 'active', 'degraded', 'offline', 'deactivated', 'maintenance'));
ALTER TABLE hosts
  ADD COLUMN health_reason        text,                 -- why it is (or was last) degraded
  ADD COLUMN health_violation_at  timestamptz;          -- the last sample that broke a host rule

-- Published: each GPU's health (a GPU without a row has never broken a rule).
CREATE OR REPLACE VIEW fleet_gpus_view AS
  SELECT g.id, g.host_id, g.idx, g.model, g.vram_gb, coalesce(gh.status, 'healthy') AS health
  FROM gpus g LEFT JOIN gpu_health gh ON gh.gpu_id = g.id;
COMMENT ON VIEW fleet_gpus_view IS 'owner: fleet; read by catalog, reservations, operator (alerts read health)';

CREATE OR REPLACE VIEW host_gpus_view AS
  SELECT g.host_id, h.status AS host_status, g.id AS gpu_id, g.idx, coalesce(gh.status, 'healthy') AS health
  FROM gpus g JOIN hosts h ON h.id = g.host_id LEFT JOIN gpu_health gh ON gh.gpu_id = g.id;
COMMENT ON VIEW host_gpus_view IS 'owner: fleet; read by reservations';
