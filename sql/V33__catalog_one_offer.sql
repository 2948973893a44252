-- Catalog at scale, part 9 (issue 20): one offer by id (the offer page, quotes) as a function
-- whose statement is planned once per connection with a generic plan.
--
-- Owners:
--   catalog  catalog_offer(offer_id, start, end) (reads the views the search reads for one offer)
--
-- The pool plans every statement of the gateway afresh (plan_cache_mode=force_custom_plan,
-- DatabasePool), which the whole search needs. The one-offer form of the search's statement
-- (CatalogRepository.OFFERS with $9 set) spent several times its execution planning (the views it
-- reads expand into one large query): 2-3 ms against ~0.7 ms, 12.7 ms under load (docs/benchmarks.md,
-- parts 5, 6 and 9). Here it is a statement of its own, for one offer only, whose every filter is
-- an equality on the offer's id or its host, so a generic plan serves every offer as well as a
-- custom one; PL/pgSQL keeps that plan for the session, and the SET clause below chooses it
-- whatever the connection's setting is.
--
-- What it answers is the search's row for one offer (the same columns, the same views, the same
-- rules): its GPUs on the host now, those healthy and free of active bookings in [start, end), the
-- price in force (offer_prices_view), the uptime (host_uptime_view), the first planned maintenance
-- overlapping the window, the templates the host can run. A GPU's bookings in the window are read
-- through V30's btree (gpu_id, upper, lower): `period && [start, end)` as its bounds (booked
-- periods are bounded and [lower, upper), V5's check). A host whose status keeps it out of the
-- search is still answered here (the offer page shows it as it is).
CREATE FUNCTION catalog_offer(offer_id text, window_start timestamptz, window_end timestamptz)
RETURNS TABLE (id text, host_id text, host_name text, host_status text, site text, region text, country character(2),
               gpu_model text, architecture text, vram_gb integer, gpus_total integer, gpus_free integer,
               gpu_counts integer[], cpu_model text, cpu_cores integer, ram_gb integer, nvme_gb integer,
               net_gbps integer, interconnect text, cpu_cores_per_gpu integer, ram_gb_per_gpu integer,
               nvme_gb_per_gpu integer, price_per_gpu_hour bigint, currency character(3),
               hyperscaler_price_minor bigint, specialized_price_minor bigint, maintenance_id text,
               maintenance_starts_at timestamptz, maintenance_ends_at timestamptz, maintenance_drain boolean,
               uptime_24h double precision, uptime_7d double precision, uptime_30d double precision,
               counted_seconds_30d double precision, down_seconds_30d double precision,
               maintenance_seconds_30d double precision, isolation text, images json)
LANGUAGE plpgsql STABLE
SET plan_cache_mode = force_generic_plan
AS $fn$
#variable_conflict use_column
BEGIN
RETURN QUERY
WITH one AS (SELECT o.id, o.host_id, o.gpu_counts, o.cpu_cores_per_gpu, o.ram_gb_per_gpu, o.nvme_gb_per_gpu, o.isolation
             FROM offers o WHERE o.id = $1),
counted AS (
  SELECT g.host_id, min(g.model) AS model, min(g.vram_gb) AS vram_gb, count(*) :: integer AS total,
         (count(*) FILTER (WHERE g.health = 'healthy' AND NOT EXISTS (
             SELECT 1 FROM booked_gpus_view b
             WHERE b.gpu_id = g.id AND upper(b.period) > $2 AND lower(b.period) < $3))) :: integer AS free
  FROM one JOIN fleet_gpus_view g ON g.host_id = one.host_id
  GROUP BY g.host_id)
SELECT o.id, o.host_id, h.name AS host_name, h.status AS host_status, h.site_name AS site, h.region, h.country,
       g.model AS gpu_model, m.architecture, g.vram_gb, g.total AS gpus_total,
       CASE WHEN mw.id IS NULL THEN g.free ELSE 0 END AS gpus_free,
       o.gpu_counts, h.cpu_model, h.cpu_cores, h.ram_gb, h.nvme_gb, h.net_gbps, h.interconnect,
       o.cpu_cores_per_gpu, o.ram_gb_per_gpu, o.nvme_gb_per_gpu,
       p.amount_per_gpu_hour AS price_per_gpu_hour, p.currency,
       m.hyperscaler_price_minor, m.specialized_price_minor,
       mw.id AS maintenance_id, mw.starts_at AS maintenance_starts_at, mw.ends_at AS maintenance_ends_at,
       mw.drain AS maintenance_drain,
       u.uptime_24h, u.uptime_7d, u.uptime_30d, u.counted_seconds_30d, u.down_seconds_30d,
       u.maintenance_seconds_30d, o.isolation,
       (SELECT coalesce(json_agg(json_build_object('id', t.template_id, 'name', t.name, 'cached', t.cached,
                 'min_driver_version', t.min_driver_version, 'min_cuda_version', t.min_cuda_version,
                 'driver_version', t.driver_version, 'cuda_version', t.cuda_version,
                 'driver_ok', t.driver_ok, 'cuda_ok', t.cuda_ok)
                 ORDER BY t.is_default DESC, t.name), '[]' :: json)
        FROM host_templates_view t WHERE t.host_id = o.host_id) AS images
FROM one o
JOIN fleet_hosts_view h ON h.id = o.host_id
CROSS JOIN LATERAL (SELECT v.amount_per_gpu_hour, v.currency
                    FROM (SELECT * FROM offer_prices_view WHERE offer_id = o.id OFFSET 0) v) p
LEFT JOIN LATERAL (SELECT v.uptime_24h, v.uptime_7d, v.uptime_30d, v.counted_seconds_30d, v.down_seconds_30d,
                          v.maintenance_seconds_30d
                   FROM (SELECT * FROM host_uptime_view WHERE host_id = h.id OFFSET 0) v) u ON true
JOIN counted g ON g.host_id = o.host_id
JOIN gpu_models m ON m.name = g.model
LEFT JOIN LATERAL (SELECT id, starts_at, ends_at, drain FROM maintenance_windows_view
                   WHERE host_id = o.host_id AND blocked && tstzrange($2, $3) ORDER BY starts_at, id LIMIT 1) mw ON true;
END
$fn$;
COMMENT ON FUNCTION catalog_offer(text, timestamptz, timestamptz) IS 'owner: catalog';
