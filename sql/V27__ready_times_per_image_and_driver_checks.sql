-- Fleet III (issue 19), the rest of the gateway's side: time-to-ready per image template, split
-- into starts whose image the host had cached and starts that pulled it; and whether a host's
-- NVIDIA driver and CUDA versions meet a template's minimums.
--
-- Owners:
--   fleet   every view and the function here (over its instances, image_templates, host_facts
--           and host_images)
-- Views:
--   ready_samples_view            fleet: the one rule for a time-to-ready sample (Fleet II's)
--   time_to_ready_view, fleet_time_to_ready_view   unchanged columns, now over ready_samples_view
--   template_time_to_ready_view   fleet -> catalog, operator
--   host_templates_view           fleet -> catalog, operator

-- One row per instance that first ran in the last 30 days after it was due: its reservation, host, image and
-- time-to-ready (running - due, never negative). An instance pulled its image when its agent
-- reported it `pulling` (the agent does so before any pull, never for a cached image), which
-- stores its pull progress; a start without that report found the image cached.
CREATE VIEW ready_samples_view AS
  SELECT reservation_id, host_id, image_ref, pull_bytes_done IS NOT NULL AS pulled,
         greatest(0, extract(epoch FROM running_at - due_at)) :: double precision AS seconds
  FROM instances WHERE due_at IS NOT NULL AND running_at > now() - interval '30 days';
COMMENT ON VIEW ready_samples_view IS 'owner: fleet; read by fleet views';

CREATE OR REPLACE VIEW time_to_ready_view AS
  SELECT host_id, count(*) :: integer AS samples,
         round(percentile_cont(0.5) WITHIN GROUP (ORDER BY seconds)) :: integer AS p50_seconds,
         round(percentile_cont(0.95) WITHIN GROUP (ORDER BY seconds)) :: integer AS p95_seconds
  FROM ready_samples_view GROUP BY host_id;

CREATE OR REPLACE VIEW fleet_time_to_ready_view AS
  SELECT count(*) :: integer AS samples,
         round(percentile_cont(0.5) WITHIN GROUP (ORDER BY seconds)) :: integer AS p50_seconds,
         round(percentile_cont(0.95) WITHIN GROUP (ORDER BY seconds)) :: integer AS p95_seconds
  FROM ready_samples_view;

-- The same per host, template (matched by its pinned reference) and cached or pulled start.
CREATE VIEW template_time_to_ready_view AS
  SELECT s.host_id, t.id AS template_id, NOT s.pulled AS cached, count(*) :: integer AS samples,
         round(percentile_cont(0.5) WITHIN GROUP (ORDER BY s.seconds)) :: integer AS p50_seconds,
         round(percentile_cont(0.95) WITHIN GROUP (ORDER BY s.seconds)) :: integer AS p95_seconds
  FROM ready_samples_view s JOIN image_templates t ON t.ref = s.image_ref
  GROUP BY s.host_id, t.id, s.pulled;
COMMENT ON VIEW template_time_to_ready_view IS 'owner: fleet; read by catalog, operator';

-- A version's numbers in order ('550.54.15' -> {550,54,15}); arrays compare number by number, and
-- a prefix is smaller ({550,54} < {550,54,15}). Null for null or a version without a number.
CREATE FUNCTION version_numbers(version text) RETURNS numeric[] LANGUAGE sql IMMUTABLE AS $$
  SELECT array_agg(m[1] :: numeric ORDER BY n) FROM regexp_matches(version, '([0-9]+)', 'g') WITH ORDINALITY AS x(m, n)
$$;

-- Every live template on every host: whether the host's image cache (its latest heartbeat) holds
-- it, and whether the host's driver and CUDA (its latest facts) meet the template's minimums. A
-- version missing on either side (not reported, not set, no number in it) refuses nothing.
CREATE VIEW host_templates_view AS
  SELECT h.id AS host_id, t.id AS template_id, t.name, t.ref, t.is_default, t.min_driver_version, t.min_cuda_version,
         f.driver_version, f.cuda_version,
         EXISTS (SELECT 1 FROM host_images hi WHERE hi.host_id = h.id
                 AND (hi.ref = t.ref OR hi.digest = split_part(t.ref, '@', 2))) AS cached,
         coalesce(version_numbers(f.driver_version) >= version_numbers(t.min_driver_version), true) AS driver_ok,
         coalesce(version_numbers(f.cuda_version) >= version_numbers(t.min_cuda_version), true) AS cuda_ok
  FROM hosts h CROSS JOIN image_templates t LEFT JOIN host_facts f ON f.host_id = h.id
  WHERE t.retired_at IS NULL;
COMMENT ON VIEW host_templates_view IS 'owner: fleet; read by catalog, operator';
