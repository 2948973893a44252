-- The fleet: hosts enrolled by their agents, the credentials agents call with, what agents report,
-- and the instances the gateway wants on each host.
--
-- Owners:
--   fleet         sites, hosts, gpus (created with the catalog in V3; the fleet writes them now),
--                 enrolment_tokens, host_credentials, host_facts, host_heartbeats, instances
--   catalog       gpu_models (gains nvidia_smi_patterns), offers (gains closed_at), prices
--   reservations  reservations (gains the instance's SSH host key and a known_hosts line)
-- Views:
--   fleet_hosts_view, fleet_gpus_view   fleet -> catalog, reservations, operator
--   gpu_models_view                      catalog -> fleet (recognising GPUs from nvidia-smi names)
--   offer_gpus_view                      catalog -> reservations, now over the fleet's views

COMMENT ON TABLE sites IS 'owner: fleet';
COMMENT ON TABLE hosts IS 'owner: fleet';
COMMENT ON TABLE gpus IS 'owner: fleet';

-- One lifecycle (fleet.HostLifecycle): enrolling -> pending -> active <-> offline,
-- active/offline -> deactivated -> active. 'maintenance' stays for hosts made before agents.
ALTER TABLE hosts DROP CONSTRAINT hosts_status_check;
ALTER TABLE hosts ADD CONSTRAINT hosts_status_check
  CHECK (status IN ('enrolling', 'pending', 'active', 'offline', 'deactivated', 'maintenance'));
-- an enrolling host has no facts yet; its agent reports them
ALTER TABLE hosts ALTER COLUMN cpu_model DROP NOT NULL, ALTER COLUMN cpu_cores DROP NOT NULL,
  ALTER COLUMN ram_gb DROP NOT NULL, ALTER COLUMN nvme_gb DROP NOT NULL, ALTER COLUMN net_gbps DROP NOT NULL,
  ALTER COLUMN interconnect DROP NOT NULL;
ALTER TABLE hosts
  ADD COLUMN public_address    text,
  ADD COLUMN enrolled_at       timestamptz,          -- set once an agent enrolled: its instances go to the agent
  ADD COLUMN desired_version   bigint NOT NULL DEFAULT 0,  -- bumped on every change of its desired instances
  ADD COLUMN created_at        timestamptz NOT NULL DEFAULT now(),
  ADD COLUMN status_changed_at timestamptz NOT NULL DEFAULT now();

-- a GPU whose nvidia-smi name matches no model has no model until the operator maps the name
ALTER TABLE gpus ALTER COLUMN model DROP NOT NULL;
ALTER TABLE gpus ADD COLUMN uuid text, ADD COLUMN nvidia_smi_name text;
CREATE UNIQUE INDEX gpus_host_uuid_key ON gpus (host_id, uuid) WHERE uuid IS NOT NULL;

-- Case-insensitive regular expressions matched against the name nvidia-smi prints.
ALTER TABLE gpu_models ADD COLUMN nvidia_smi_patterns text[] NOT NULL DEFAULT '{}';
INSERT INTO gpu_models (name, vram_gb, architecture, hyperscaler_price_minor, hyperscaler_source,
                        specialized_price_minor, specialized_source, reference_currency, reference_as_of,
                        nvidia_smi_patterns) VALUES
  ('H200',      141, 'Hopper',       798, 'AWS p5e.48xlarge on-demand ÷ 8',  335, 'specialized GPU clouds, on-demand', 'usd', '2026-10-01',
   '{"^NVIDIA H200( NVL)?$"}'),
  ('H100 SXM',   80, 'Hopper',       688, 'AWS p5.48xlarge on-demand ÷ 8',   210, 'specialized GPU clouds, on-demand', 'usd', '2026-10-01',
   '{"^NVIDIA H100 80GB HBM3$","^NVIDIA H100 SXM5? ?80GB$"}'),
  ('A100 80GB',  80, 'Ampere',       512, 'AWS p4de.24xlarge on-demand ÷ 8', 129, 'specialized GPU clouds, on-demand', 'usd', '2026-10-01',
   '{"^NVIDIA A100[- ]SXM4[- ]80GB$","^NVIDIA A100 80GB PCIe$"}'),
  ('L40S',       48, 'Ada Lovelace', 186, 'AWS g6e.xlarge on-demand',         86, 'specialized GPU clouds, on-demand', 'usd', '2026-10-01',
   '{"^NVIDIA L40S$"}'),
  ('RTX 4090',   24, 'Ada Lovelace', NULL, NULL,                              39, 'community GPU clouds, on-demand',   'usd', '2026-10-01',
   '{"^NVIDIA GeForce RTX 4090$"}'),
  ('RTX 5090',   32, 'Blackwell',    NULL, NULL,                              69, 'community GPU clouds, on-demand',   'usd', '2026-10-01',
   '{"^NVIDIA GeForce RTX 5090$"}')
ON CONFLICT (name) DO UPDATE SET nvidia_smi_patterns = EXCLUDED.nvidia_smi_patterns;

-- An offer is closed when its host is deactivated (reservations keep pointing at it).
ALTER TABLE offers ADD COLUMN closed_at timestamptz;

-- One-time enrolment tokens: only the SHA-256 of the secret, valid 24 h, used once.
CREATE TABLE enrolment_tokens (
  token_hash  bytea PRIMARY KEY,
  host_id     text NOT NULL REFERENCES hosts (id),
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX enrolment_tokens_host_idx ON enrolment_tokens (host_id);

-- Long-lived host credentials (gpr_host_…): hashed, revocable; one live credential per host.
CREATE TABLE host_credentials (
  id           text PRIMARY KEY,                       -- hcr_…
  host_id      text NOT NULL REFERENCES hosts (id),
  secret_hash  bytea NOT NULL UNIQUE,
  prefix       text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  revoked_at   timestamptz
);
CREATE UNIQUE INDEX host_credentials_live_key ON host_credentials (host_id) WHERE revoked_at IS NULL;

-- What the agent reported at enrolment, as sent, plus the columns read often.
CREATE TABLE host_facts (
  host_id         text PRIMARY KEY REFERENCES hosts (id),
  hostname        text,
  driver_version  text,
  cuda_version    text,
  agent_version   text,
  facts           jsonb NOT NULL,
  reported_at     timestamptz NOT NULL DEFAULT now()
);

-- The latest heartbeat per host (Fleet II keeps the time series).
CREATE TABLE host_heartbeats (
  host_id        text PRIMARY KEY REFERENCES hosts (id),
  last_at        timestamptz NOT NULL,
  agent_version  text,
  telemetry      jsonb
);

-- The instance the gateway wants for a reservation (desired), and the agent's last report on it.
-- No foreign key to reservations: the fleet knows nothing above it.
CREATE TABLE instances (
  reservation_id        text PRIMARY KEY,
  host_id               text NOT NULL REFERENCES hosts (id),
  gpu_indexes           integer[] NOT NULL,
  ssh_public_key        text NOT NULL,
  unix_user             text NOT NULL,
  ends_at               timestamptz NOT NULL,
  desired               boolean NOT NULL DEFAULT true,
  state                 text CHECK (state IN ('preparing', 'running', 'stopped', 'failed')),
  ssh_host              text,
  ssh_port              integer,
  ssh_user              text,
  host_key_fingerprint  text,
  host_key              text,
  reason                text,
  reported_at           timestamptz,
  created_at            timestamptz NOT NULL DEFAULT now(),
  updated_at            timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX instances_desired_idx ON instances (host_id) WHERE desired;

COMMENT ON TABLE enrolment_tokens IS 'owner: fleet';
COMMENT ON TABLE host_credentials IS 'owner: fleet';
COMMENT ON TABLE host_facts IS 'owner: fleet';
COMMENT ON TABLE host_heartbeats IS 'owner: fleet';
COMMENT ON TABLE instances IS 'owner: fleet';

-- What the renter pastes to trust the instance's SSH host key (no trust on first use).
ALTER TABLE reservations ADD COLUMN ssh_host_key_fingerprint text, ADD COLUMN ssh_known_hosts text;

-- Published by the fleet: hosts with their site, facts, GPU summary and status.
CREATE VIEW fleet_hosts_view AS
  SELECT h.id, h.name, h.status, h.site_id, s.name AS site_name, s.region, s.country,
         h.cpu_model, h.cpu_cores, h.ram_gb, h.nvme_gb, h.net_gbps, h.interconnect,
         (SELECT count(*) FROM gpus g WHERE g.host_id = h.id) :: integer AS gpu_count,
         (SELECT min(g.model) FROM gpus g WHERE g.host_id = h.id) AS gpu_model,
         (SELECT min(g.vram_gb) FROM gpus g WHERE g.host_id = h.id) AS vram_gb
  FROM hosts h JOIN sites s ON s.id = h.site_id;
COMMENT ON VIEW fleet_hosts_view IS 'owner: fleet; read by catalog, operator';

CREATE VIEW fleet_gpus_view AS
  SELECT id, host_id, idx, model, vram_gb FROM gpus;
COMMENT ON VIEW fleet_gpus_view IS 'owner: fleet; read by catalog, reservations';

-- Published by the catalog: the GPU models and the nvidia-smi names that mean them.
CREATE VIEW gpu_models_view AS
  SELECT name, vram_gb, nvidia_smi_patterns FROM gpu_models;
COMMENT ON VIEW gpu_models_view IS 'owner: catalog; read by fleet';

-- Each host's GPUs with the host's status (V8) now comes from the fleet's tables.
COMMENT ON VIEW host_gpus_view IS 'owner: fleet; read by reservations';
