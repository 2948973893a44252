-- A fleet with history, for measuring the catalog's SQL at scale (docs/benchmarks.md, "Catalog
-- at scale"). Run on a migrated, otherwise empty scratch database, never on a real one:
--
--   psql -v hosts=1000 -f bench/sql/seed-fleet.sql
--
-- It writes through the real tables, as the features would have: 10 sites; :hosts hosts of
-- 8 GPUs (five models), 94 % active, 3 % in maintenance, 3 % offline, each with an open offer;
-- 30 days of status history with two offline spells per host; model-and-site default prices
-- with a history of six changes, own prices (three changes) for a third of the offers;
-- 100 reservations per host (82 past: completed, every tenth cancelled; 18 future: confirmed),
-- one running now on every third host; a planned maintenance window on every tenth host and
-- a past one on every fifth; a few degraded GPUs. Deterministic (no random()), so runs compare.
\set ON_ERROR_STOP on
BEGIN;
SET LOCAL synchronous_commit = off;

INSERT INTO accounts (id, display_name, created_at) VALUES ('acc_bench', 'Bench renter', now() - interval '1 year')
  ON CONFLICT DO NOTHING;

INSERT INTO sites (id, name, region, country)
SELECT 'site_b' || s, 'bench-site-' || s, (ARRAY['eu-west', 'eu-central', 'us-east', 'us-west', 'ap-south'])[1 + s % 5],
       (ARRAY['IE', 'DE', 'US', 'US', 'IN'])[1 + s % 5]
FROM generate_series(0, 9) s;

CREATE TEMP TABLE bench_models (k int PRIMARY KEY, name text, vram int) ON COMMIT DROP;
INSERT INTO bench_models VALUES (0, 'H100 SXM', 80), (1, 'A100 80GB', 80), (2, 'L40S', 48), (3, 'RTX 4090', 24),
  (4, 'H200', 141);

-- inserted as active (the trigger writes a history row at now(), removed below for a 30-day one)
INSERT INTO hosts (id, site_id, name, status, cpu_model, cpu_cores, ram_gb, nvme_gb, net_gbps, interconnect,
                   created_at, status_changed_at)
SELECT 'host_b' || h, 'site_b' || (h % 10), 'bench-' || h, 'active', 'EPYC 9354', 64, 1024, 15000, 100,
       CASE WHEN h % 5 = 4 THEN 'PCIe' ELSE 'NVLink' END, now() - interval '120 days', now() - interval '1 day'
FROM generate_series(1, :hosts) h;

INSERT INTO gpus (id, host_id, idx, model, vram_gb, uuid)
SELECT 'gpu_b' || h || '_' || i, 'host_b' || h, i, m.name, m.vram, 'GPU-b' || h || '-' || i
FROM generate_series(1, :hosts) h CROSS JOIN generate_series(0, 7) i JOIN bench_models m ON m.k = h % 5;

INSERT INTO gpu_health (gpu_id, status, reason, since)
SELECT 'gpu_b' || h || '_7', 'degraded', 'ecc', now() - interval '2 hours' FROM generate_series(7, :hosts, 50) h;

INSERT INTO offers (id, host_id, gpu_counts, cpu_cores_per_gpu, ram_gb_per_gpu, nvme_gb_per_gpu, created_at)
SELECT 'off_b' || h, 'host_b' || h, '{1,2,4,8}', 8, 128, 1875, now() - interval '120 days'
FROM generate_series(1, :hosts) h;

-- prices: model-and-site defaults (six changes over 150 days), own prices for every third offer
INSERT INTO prices (offer_id, gpu_model, site_id, amount_per_gpu_hour, currency, effective_from, set_by)
SELECT NULL, m.name, 'site_b' || s, 100 + 40 * m.k + 5 * s + 3 * v, 'usd', now() - (150 - 25 * v) * interval '1 day',
       'bench'
FROM bench_models m CROSS JOIN generate_series(0, 9) s CROSS JOIN generate_series(0, 5) v;
INSERT INTO prices (offer_id, amount_per_gpu_hour, currency, effective_from, set_by)
SELECT 'off_b' || h, 150 + h % 200 + 7 * v, 'usd', now() - (90 - 40 * v) * interval '1 day', 'bench'
FROM generate_series(3, :hosts, 3) h CROSS JOIN generate_series(0, 2) v;

-- status history: active since 60 days, two offline spells in the last 30 days; the current status
DELETE FROM host_status_history WHERE host_id ~ '^host_b[0-9]+$';
INSERT INTO host_status_history (host_id, at, from_status, to_status)
SELECT 'host_b' || h, e.at, e.from_status, e.to_status
FROM generate_series(1, :hosts) h,
     LATERAL (VALUES (now() - interval '60 days', 'pending', 'active'),
                     (now() - (25 + h % 3) * interval '1 day', 'active', 'offline'),
                     (now() - (25 + h % 3) * interval '1 day' + (30 + h % 90) * interval '1 minute', 'offline', 'active'),
                     (now() - (8 + h % 5) * interval '1 day', 'active', 'offline'),
                     (now() - (8 + h % 5) * interval '1 day' + (10 + h % 40) * interval '1 minute', 'offline', 'active'))
       AS e(at, from_status, to_status);
UPDATE hosts SET status = CASE WHEN substring(id FROM 7)::int % 33 = 5 THEN 'maintenance' ELSE 'offline' END
-- (only the seeded hosts: ids of hosts enrolled through the API may start with host_b too)
WHERE CASE WHEN id ~ '^host_b[0-9]+$' THEN substring(id FROM 7)::int % 33 IN (5, 6) ELSE false END;

-- maintenance windows: planned on every tenth host (in 2 to 6 days, 4 h), past on every fifth
INSERT INTO maintenance_windows (id, host_id, starts_at, ends_at, drain, reason, created_by, created_at)
SELECT 'mw_b' || h || '_' || w.k, 'host_b' || h, w.starts_at, w.starts_at + interval '4 hours', w.k = 1, 'bench',
       'acc_bench', now() - interval '10 days'
FROM generate_series(1, :hosts) h,
     LATERAL (VALUES (1, now() + (2 + h % 5) * interval '1 day'), (2, now() - (3 + h % 20) * interval '1 day'))
       AS w(k, starts_at)
WHERE (w.k = 1 AND h % 10 = 0) OR (w.k = 2 AND h % 5 = 0);

-- reservations: per host one after another, so the exclusion constraint holds by construction.
-- Past slots of 26 h from 82 slots ago (k 0..81), future slots of 18 h from now + 2 h (k 82..99);
-- every third host has one running now (k 81: the last 5 h to the next hour). GPUs: 1, 2, 4 or 8 from idx 0.
CREATE TEMP TABLE bench_rsv ON COMMIT DROP AS
SELECT 'rsv_b' || h || '_' || k AS id, h, k, (ARRAY[1, 2, 4, 8, 1, 2, 1, 4])[1 + (h + k) % 8] AS gpu_count,
       CASE WHEN k = 81 AND h % 3 = 0 THEN tstzrange(now() - interval '5 hours', now() + interval '1 hour')
            WHEN k < 82 THEN
              tstzrange(now() - (82 - k) * interval '26 hours',
                        now() - (82 - k) * interval '26 hours' + (4 + (h * 7 + k) % 20) * interval '1 hour')
            ELSE tstzrange(now() + interval '2 hours' + (k - 82) * interval '18 hours',
                           now() + interval '2 hours' + (k - 82) * interval '18 hours' + (2 + (h + k) % 14) * interval '1 hour')
       END AS period,
       CASE WHEN k >= 82 THEN 'confirmed' WHEN k = 81 AND h % 3 = 0 THEN 'running'
            WHEN k % 10 = 3 THEN 'cancelled' ELSE 'completed' END AS status
FROM generate_series(1, :hosts) h CROSS JOIN generate_series(0, 99) k;

INSERT INTO reservations (id, account_id, offer_id, host_id, gpu_count, period, status, quote_id, price, total_amount,
                          currency, ssh_public_key, ssh_fingerprint, payment_method, created_at, updated_at)
SELECT r.id, 'acc_bench', 'off_b' || r.h, 'host_b' || r.h, r.gpu_count, r.period, r.status, 'quo_' || r.id,
       '{}'::jsonb, 250 * r.gpu_count, 'usd', 'ssh-ed25519 AAAA bench', 'SHA256:bench', 'saved_card',
       lower(r.period) - interval '3 days', lower(r.period)
FROM bench_rsv r;

INSERT INTO reservation_gpus (reservation_id, gpu_id, period, active)
SELECT r.id, 'gpu_b' || r.h || '_' || i, r.period, r.status <> 'cancelled'
FROM bench_rsv r CROSS JOIN LATERAL generate_series(0, r.gpu_count - 1) i;

COMMIT;
VACUUM ANALYZE;
