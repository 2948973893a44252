-- Sandbox demo fleet, catalog side: the offers and list prices of the six demo hosts (approximate
-- on-demand prices per GPU-hour from public figures, autumn 2026). The hosts, their sites and GPUs
-- are the fleet's (fleet.DemoHosts, seeded first); the GPU models come with the migrations.
-- Idempotent: safe when several nodes start at once and on every restart.

INSERT INTO offers (id, host_id, gpu_counts, cpu_cores_per_gpu, ram_gb_per_gpu, nvme_gb_per_gpu) VALUES
  ('off_nyc_h200_01', 'host_nyc_h200_01', '{1,2,4,8}', 24, 256, 3840),
  ('off_nyc_h100_01', 'host_nyc_h100_01', '{1,2,4,8}', 14, 256, 3840),
  ('off_fra_a100_01', 'host_fra_a100_01', '{1,2,4}',   32, 256, 3840),
  ('off_fra_l40s_01', 'host_fra_l40s_01', '{1,2,4,8}', 12, 128, 1920),
  ('off_osl_4090_01', 'host_osl_4090_01', '{1,2,4}',    8,  64, 1024),
  ('off_osl_5090_01', 'host_osl_5090_01', '{1,2}',      8,  64, 2048)
-- No arbiter: offers are unique by id and by host_id, and a node seeding at the same moment inserts
-- the same rows; ON CONFLICT (id) let the later insert fail on host_id (the race of issue 25).
ON CONFLICT DO NOTHING;

INSERT INTO prices (offer_id, amount_per_gpu_hour, currency, effective_from, set_by) VALUES
  ('off_nyc_h200_01', 329, 'usd', '2026-01-01T00:00:00Z', 'demo-fleet'),
  ('off_nyc_h100_01', 199, 'usd', '2026-01-01T00:00:00Z', 'demo-fleet'),
  ('off_fra_a100_01', 119, 'usd', '2026-01-01T00:00:00Z', 'demo-fleet'),
  ('off_fra_l40s_01',  79, 'usd', '2026-01-01T00:00:00Z', 'demo-fleet'),
  ('off_osl_4090_01',  35, 'usd', '2026-01-01T00:00:00Z', 'demo-fleet'),
  ('off_osl_5090_01',  65, 'usd', '2026-01-01T00:00:00Z', 'demo-fleet')
ON CONFLICT (offer_id, effective_from) WHERE offer_id IS NOT NULL DO NOTHING;
