-- The fleet and what it sells: sites, hosts, GPUs, offers, and the operator's price history.

CREATE TABLE gpu_models (
  name                     text PRIMARY KEY,          -- e.g. 'H100 SXM'
  vram_gb                  integer NOT NULL CHECK (vram_gb > 0),
  architecture             text NOT NULL,
  -- public on-demand list prices per GPU-hour, for comparison only
  hyperscaler_price_minor  bigint CHECK (hyperscaler_price_minor > 0),
  hyperscaler_source       text,
  specialized_price_minor  bigint CHECK (specialized_price_minor > 0),
  specialized_source       text,
  reference_currency       char(3) NOT NULL DEFAULT 'usd',
  reference_as_of          date
);

CREATE TABLE sites (
  id       text PRIMARY KEY,                           -- site_…
  name     text NOT NULL UNIQUE,
  region   text NOT NULL,
  country  char(2) NOT NULL
);

CREATE TABLE hosts (
  id            text PRIMARY KEY,                      -- host_…
  site_id       text NOT NULL REFERENCES sites (id),
  name          text NOT NULL UNIQUE,
  status        text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'maintenance', 'offline')),
  cpu_model     text NOT NULL,
  cpu_cores     integer NOT NULL CHECK (cpu_cores > 0),
  ram_gb        integer NOT NULL CHECK (ram_gb > 0),
  nvme_gb       integer NOT NULL CHECK (nvme_gb > 0),
  net_gbps      integer NOT NULL CHECK (net_gbps > 0),
  interconnect  text NOT NULL                          -- 'NVLink', 'PCIe', …
);
CREATE INDEX hosts_site_idx ON hosts (site_id);

CREATE TABLE gpus (
  id        text PRIMARY KEY,                          -- gpu_…
  host_id   text NOT NULL REFERENCES hosts (id),
  idx       integer NOT NULL CHECK (idx >= 0),
  model     text NOT NULL REFERENCES gpu_models (name),
  vram_gb   integer NOT NULL CHECK (vram_gb > 0),
  UNIQUE (host_id, idx)
);

-- What a host sells: the GPU counts one reservation may take, and each GPU's share of the host.
CREATE TABLE offers (
  id                 text PRIMARY KEY,                 -- off_…
  host_id            text NOT NULL UNIQUE REFERENCES hosts (id),
  gpu_counts         integer[] NOT NULL CHECK (cardinality(gpu_counts) > 0 AND 0 < ALL (gpu_counts)),
  cpu_cores_per_gpu  integer NOT NULL CHECK (cpu_cores_per_gpu > 0),
  ram_gb_per_gpu     integer NOT NULL CHECK (ram_gb_per_gpu > 0),
  nvme_gb_per_gpu    integer NOT NULL CHECK (nvme_gb_per_gpu > 0),
  created_at         timestamptz NOT NULL DEFAULT now()
);

-- Prices are never rewritten: a change is a new row effective from its time. A price is for one
-- offer, or the default for a GPU model at a site (used by offers without a price of their own).
CREATE TABLE prices (
  id                    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  offer_id              text REFERENCES offers (id),
  gpu_model             text REFERENCES gpu_models (name),
  site_id               text REFERENCES sites (id),
  amount_per_gpu_hour   bigint NOT NULL CHECK (amount_per_gpu_hour > 0),
  currency              char(3) NOT NULL,
  effective_from        timestamptz NOT NULL,
  set_by                text NOT NULL,
  created_at            timestamptz NOT NULL DEFAULT now(),
  CHECK ((offer_id IS NOT NULL AND gpu_model IS NULL AND site_id IS NULL)
      OR (offer_id IS NULL AND gpu_model IS NOT NULL AND site_id IS NOT NULL))
);
CREATE UNIQUE INDEX prices_offer_idx ON prices (offer_id, effective_from) WHERE offer_id IS NOT NULL;
CREATE UNIQUE INDEX prices_default_idx ON prices (gpu_model, site_id, effective_from) WHERE offer_id IS NULL;

-- Which GPU is held for which time. The exclusion constraint is the one guard against double
-- booking; reservation_id points at the reservations table once that exists.
CREATE TABLE reservation_gpus (
  reservation_id  text NOT NULL,
  gpu_id          text NOT NULL REFERENCES gpus (id),
  period          tstzrange NOT NULL CHECK (NOT isempty(period) AND lower_inc(period) AND NOT upper_inc(period)),
  active          boolean NOT NULL DEFAULT true,
  PRIMARY KEY (reservation_id, gpu_id),
  EXCLUDE USING gist (gpu_id WITH =, period WITH &&) WHERE (active)
);
