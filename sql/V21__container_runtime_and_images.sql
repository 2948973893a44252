-- Fleet III (gateway side): the runtime a host's agent runs instances with, the image templates the
-- operator publishes, the registries custom images may come from, each host's image cache, and
-- the image and ports each reservation's instance runs with.
--
-- Owners:
--   fleet         host_facts (gains runtime, container_toolkit_version, engine), image_templates,
--                 image_settings, host_images, instances (gains image, ports, limits, pull progress
--                 and the published ports; state 'pulling')
--   catalog       offers (gains isolation: 'whole_host' for process-runtime hosts, rented whole)
--   reservations  reservations (gains the image chosen, the ports asked for, the ports published)
-- Views:
--   image_templates_view   fleet -> catalog (which templates a host has cached), operator
--   host_images_view       fleet -> catalog
--   offer_hosts_view       catalog -> reservations, now with each GPU's share and the isolation

ALTER TABLE host_facts
  ADD COLUMN runtime                    text CHECK (runtime IN ('container', 'process', 'simulated')),
  ADD COLUMN container_toolkit_version  text,
  ADD COLUMN engine                     text;

-- Templates: images pinned by digest that renters pick by id (img_…). A retired template is no
-- longer offered or pre-pulled; reservations made with it keep their reference.
CREATE TABLE image_templates (
  id                  text PRIMARY KEY,
  name                text NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
  ref                 text NOT NULL CHECK (ref ~ '@sha256:[0-9a-f]{64}$'),
  description         text NOT NULL DEFAULT '',
  default_ports       integer[] NOT NULL DEFAULT '{}',
  min_driver_version  text,
  min_cuda_version    text,
  is_default          boolean NOT NULL DEFAULT false,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  retired_at          timestamptz
);
CREATE UNIQUE INDEX image_templates_name_key ON image_templates (lower(name)) WHERE retired_at IS NULL;
-- at most one live default template (what a reservation without an image runs)
CREATE UNIQUE INDEX image_templates_default_key ON image_templates (is_default) WHERE is_default AND retired_at IS NULL;

-- One row: the registries custom images may come from, and how much disk a host's image cache
-- may take before the agent evicts the least recently used images.
CREATE TABLE image_settings (
  id                    boolean PRIMARY KEY DEFAULT true CHECK (id),
  allowed_registries    text[] NOT NULL DEFAULT '{}',
  image_cache_limit_gb  integer NOT NULL DEFAULT 200 CHECK (image_cache_limit_gb > 0),
  updated_at            timestamptz NOT NULL DEFAULT now(),
  updated_by            text
);
INSERT INTO image_settings (id) VALUES (true);

-- Each host's image cache as its latest heartbeat reported it.
CREATE TABLE host_images (
  host_id       text NOT NULL REFERENCES hosts (id),
  ref           text NOT NULL,
  digest        text,
  size_bytes    bigint,
  last_used_at  timestamptz,
  reported_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (host_id, ref)
);
CREATE INDEX host_images_digest_idx ON host_images (digest);

COMMENT ON TABLE image_templates IS 'owner: fleet';
COMMENT ON TABLE image_settings IS 'owner: fleet';
COMMENT ON TABLE host_images IS 'owner: fleet';

ALTER TABLE instances DROP CONSTRAINT instances_state_check;
ALTER TABLE instances ADD CONSTRAINT instances_state_check
  CHECK (state IN ('preparing', 'pulling', 'running', 'stopped', 'failed'));
ALTER TABLE instances
  ADD COLUMN image_ref         text,
  ADD COLUMN image_ports       integer[] NOT NULL DEFAULT '{}',
  ADD COLUMN limits            jsonb,
  ADD COLUMN pull_bytes_done   bigint,
  ADD COLUMN pull_bytes_total  bigint,
  ADD COLUMN published_ports   jsonb;

ALTER TABLE offers ADD COLUMN isolation text NOT NULL DEFAULT 'container'
  CHECK (isolation IN ('container', 'whole_host'));

ALTER TABLE reservations
  ADD COLUMN image_template_id  text,
  ADD COLUMN image_ref          text,
  ADD COLUMN image_ports        integer[] NOT NULL DEFAULT '{}',
  ADD COLUMN published_ports    jsonb;

CREATE VIEW image_templates_view AS
  SELECT id, name, ref, description, default_ports, min_driver_version, min_cuda_version, is_default, retired_at
  FROM image_templates;
COMMENT ON VIEW image_templates_view IS 'owner: fleet; read by catalog, operator';

CREATE VIEW host_images_view AS
  SELECT host_id, ref, digest, size_bytes, last_used_at FROM host_images;
COMMENT ON VIEW host_images_view IS 'owner: fleet; read by catalog';

CREATE OR REPLACE VIEW offer_hosts_view AS
  SELECT id AS offer_id, host_id, cpu_cores_per_gpu, ram_gb_per_gpu, nvme_gb_per_gpu, isolation FROM offers;
