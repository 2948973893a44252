-- Sandbox demo fleet: three sites, six hosts, 34 GPUs, with list prices from public figures
-- (approximate on-demand prices per GPU-hour, autumn 2026). Idempotent: safe when several
-- nodes start at once and on every restart.

INSERT INTO gpu_models (name, vram_gb, architecture, hyperscaler_price_minor, hyperscaler_source,
                        specialized_price_minor, specialized_source, reference_currency, reference_as_of) VALUES
  ('H200',      141, 'Hopper',       798, 'AWS p5e.48xlarge on-demand ÷ 8',  335, 'specialized GPU clouds, on-demand', 'usd', '2026-10-01'),
  ('H100 SXM',   80, 'Hopper',       688, 'AWS p5.48xlarge on-demand ÷ 8',   210, 'specialized GPU clouds, on-demand', 'usd', '2026-10-01'),
  ('A100 80GB',  80, 'Ampere',       512, 'AWS p4de.24xlarge on-demand ÷ 8', 129, 'specialized GPU clouds, on-demand', 'usd', '2026-10-01'),
  ('L40S',       48, 'Ada Lovelace', 186, 'AWS g6e.xlarge on-demand',         86, 'specialized GPU clouds, on-demand', 'usd', '2026-10-01'),
  ('RTX 4090',   24, 'Ada Lovelace', NULL, NULL,                              39, 'community GPU clouds, on-demand',   'usd', '2026-10-01'),
  ('RTX 5090',   32, 'Blackwell',    NULL, NULL,                              69, 'community GPU clouds, on-demand',   'usd', '2026-10-01')
ON CONFLICT (name) DO NOTHING;

INSERT INTO sites (id, name, region, country) VALUES
  ('site_nyc1', 'New York 1',  'us-east',    'US'),
  ('site_fra1', 'Frankfurt 1', 'eu-central', 'DE'),
  ('site_osl1', 'Oslo 1',      'eu-north',   'NO')
ON CONFLICT (id) DO NOTHING;

INSERT INTO hosts (id, site_id, name, cpu_model, cpu_cores, ram_gb, nvme_gb, net_gbps, interconnect) VALUES
  ('host_nyc_h200_01', 'site_nyc1', 'nyc-h200-01', 'AMD EPYC 9654',                   192, 2048, 30720, 400, 'NVLink'),
  ('host_nyc_h100_01', 'site_nyc1', 'nyc-h100-01', 'Intel Xeon Platinum 8480+',       112, 2048, 30720, 400, 'NVLink'),
  ('host_fra_a100_01', 'site_fra1', 'fra-a100-01', 'AMD EPYC 7763',                   128, 1024, 15360, 200, 'NVLink'),
  ('host_fra_l40s_01', 'site_fra1', 'fra-l40s-01', 'AMD EPYC 9454',                    96, 1024, 15360, 100, 'PCIe'),
  ('host_osl_4090_01', 'site_osl1', 'osl-4090-01', 'AMD Threadripper PRO 7975WX',      32,  256,  4096,  25, 'PCIe'),
  ('host_osl_5090_01', 'site_osl1', 'osl-5090-01', 'AMD Ryzen 9 9950X',                16,  128,  4096,  25, 'PCIe')
ON CONFLICT (id) DO NOTHING;

INSERT INTO gpus (id, host_id, idx, model, vram_gb)
SELECT h.id || '_gpu' || i, h.id, i, h.model, m.vram_gb
FROM (VALUES ('host_nyc_h200_01', 'H200', 8), ('host_nyc_h100_01', 'H100 SXM', 8),
             ('host_fra_a100_01', 'A100 80GB', 4), ('host_fra_l40s_01', 'L40S', 8),
             ('host_osl_4090_01', 'RTX 4090', 4), ('host_osl_5090_01', 'RTX 5090', 2)) AS h (id, model, count)
JOIN gpu_models m ON m.name = h.model
CROSS JOIN LATERAL generate_series(0, h.count - 1) AS i
ON CONFLICT (id) DO NOTHING;

INSERT INTO offers (id, host_id, gpu_counts, cpu_cores_per_gpu, ram_gb_per_gpu, nvme_gb_per_gpu) VALUES
  ('off_nyc_h200_01', 'host_nyc_h200_01', '{1,2,4,8}', 24, 256, 3840),
  ('off_nyc_h100_01', 'host_nyc_h100_01', '{1,2,4,8}', 14, 256, 3840),
  ('off_fra_a100_01', 'host_fra_a100_01', '{1,2,4}',   32, 256, 3840),
  ('off_fra_l40s_01', 'host_fra_l40s_01', '{1,2,4,8}', 12, 128, 1920),
  ('off_osl_4090_01', 'host_osl_4090_01', '{1,2,4}',    8,  64, 1024),
  ('off_osl_5090_01', 'host_osl_5090_01', '{1,2}',      8,  64, 2048)
ON CONFLICT (id) DO NOTHING;

INSERT INTO prices (offer_id, amount_per_gpu_hour, currency, effective_from, set_by) VALUES
  ('off_nyc_h200_01', 329, 'usd', '2026-01-01T00:00:00Z', 'demo-fleet'),
  ('off_nyc_h100_01', 199, 'usd', '2026-01-01T00:00:00Z', 'demo-fleet'),
  ('off_fra_a100_01', 119, 'usd', '2026-01-01T00:00:00Z', 'demo-fleet'),
  ('off_fra_l40s_01',  79, 'usd', '2026-01-01T00:00:00Z', 'demo-fleet'),
  ('off_osl_4090_01',  35, 'usd', '2026-01-01T00:00:00Z', 'demo-fleet'),
  ('off_osl_5090_01',  65, 'usd', '2026-01-01T00:00:00Z', 'demo-fleet')
ON CONFLICT (offer_id, effective_from) WHERE offer_id IS NOT NULL DO NOTHING;
