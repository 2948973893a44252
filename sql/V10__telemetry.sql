-- Fleet II: heartbeat telemetry as a time series. Raw samples are kept 48 h, hourly roll-ups
-- 400 days (a cluster-singleton job of the fleet rolls up and prunes).
--
-- Owners:
--   fleet   host_samples, gpu_samples, host_telemetry_hourly, gpu_telemetry_hourly
-- Views:
--   host_energy_hourly_view   fleet -> operator (economics: energy from measured power)

-- One row per heartbeat: the host as a whole.
CREATE TABLE host_samples (
  host_id       text NOT NULL REFERENCES hosts (id),
  at            timestamptz NOT NULL,
  power_w       double precision,                       -- wall power of the server
  power_source  text CHECK (power_source IN ('measured', 'estimated')),
  disk_free_gb  double precision,
  disk_health   text,                                   -- SMART overall: passed / failed / null (unknown)
  load_1m       double precision,
  rtt_ms        double precision,                       -- agent -> gateway round trip of the previous heartbeat
  PRIMARY KEY (host_id, at)
);
CREATE INDEX host_samples_at_idx ON host_samples (at);

-- One row per GPU per heartbeat; null where nvidia-smi reported [N/A] / [Not Supported].
CREATE TABLE gpu_samples (
  host_id                text NOT NULL REFERENCES hosts (id),
  gpu_index              integer NOT NULL,
  at                     timestamptz NOT NULL,
  temperature_c          double precision,
  power_draw_w           double precision,
  utilization_pct        double precision,
  memory_used_mib        double precision,
  ecc_uncorrected        bigint,
  remapped_rows_failure  boolean,
  PRIMARY KEY (host_id, gpu_index, at)
);
CREATE INDEX gpu_samples_at_idx ON gpu_samples (at);

-- Hourly roll-ups. energy_wh integrates power over the seconds the samples cover
-- (covered_seconds); an hour with no samples has no row: its energy is unknown, not zero.
CREATE TABLE host_telemetry_hourly (
  host_id          text NOT NULL REFERENCES hosts (id),
  hour             timestamptz NOT NULL,
  samples          integer NOT NULL,
  measured_samples integer NOT NULL,                    -- samples whose power came from the BMC
  covered_seconds  double precision NOT NULL,
  power_w_avg      double precision,
  energy_wh        double precision,
  disk_free_gb_min double precision,
  rtt_ms_avg       double precision,
  PRIMARY KEY (host_id, hour)
);

CREATE TABLE gpu_telemetry_hourly (
  host_id             text NOT NULL REFERENCES hosts (id),
  gpu_index           integer NOT NULL,
  hour                timestamptz NOT NULL,
  samples             integer NOT NULL,
  covered_seconds     double precision NOT NULL,
  temperature_min_c   double precision,
  temperature_avg_c   double precision,
  temperature_max_c   double precision,
  power_draw_w_avg    double precision,
  energy_wh           double precision,
  utilization_avg_pct double precision,
  PRIMARY KEY (host_id, gpu_index, hour)
);

COMMENT ON TABLE host_samples IS 'owner: fleet';
COMMENT ON TABLE gpu_samples IS 'owner: fleet';
COMMENT ON TABLE host_telemetry_hourly IS 'owner: fleet';
COMMENT ON TABLE gpu_telemetry_hourly IS 'owner: fleet';

-- Published by the fleet: each host's measured energy per hour (for the operator's economics).
CREATE VIEW host_energy_hourly_view AS
  SELECT host_id, hour, samples, measured_samples, covered_seconds, power_w_avg, energy_wh
  FROM host_telemetry_hourly;
COMMENT ON VIEW host_energy_hourly_view IS 'owner: fleet; read by operator';
