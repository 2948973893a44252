-- Host status history, planned maintenance windows and the uptime computed from both.
--
-- Owners:
--   fleet   host_status_history, maintenance_windows
-- Views:
--   maintenance_windows_view   fleet -> catalog (availability, quotes), reservations (creation re-check)
--   host_uptime_view           fleet -> catalog (every offer), operator (through fleet.Uptimes)

-- Every status a host has had, from when. Written by a trigger on hosts, so every move (the
-- lifecycle's MOVE, the offline sweep, and any statement added later, e.g. for 'degraded') is
-- recorded in the transaction of the move itself; no code path can forget it.
CREATE TABLE host_status_history (
  id           bigserial PRIMARY KEY,
  host_id      text NOT NULL REFERENCES hosts (id) ON DELETE CASCADE,  -- history of a host, gone with it
  at           timestamptz NOT NULL,
  from_status  text,                      -- null: the host was created (or backfilled) with to_status
  to_status    text NOT NULL
);
CREATE INDEX host_status_history_host_at_idx ON host_status_history (host_id, at);
COMMENT ON TABLE host_status_history IS 'owner: fleet';

CREATE FUNCTION fleet_record_host_status() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.status IS NOT DISTINCT FROM NEW.status THEN
    RETURN NULL;
  END IF;
  INSERT INTO host_status_history (host_id, at, from_status, to_status)
  VALUES (NEW.id, now(), CASE WHEN TG_OP = 'UPDATE' THEN OLD.status END, NEW.status);
  RETURN NULL;
END
$$;
CREATE TRIGGER hosts_status_history AFTER INSERT OR UPDATE OF status ON hosts
  FOR EACH ROW EXECUTE FUNCTION fleet_record_host_status();

-- Backfill: each existing host has had its status since its last change.
INSERT INTO host_status_history (host_id, at, from_status, to_status)
  SELECT id, status_changed_at, NULL, status FROM hosts;

-- Planned maintenance of a host. Cancelling keeps the row (cancelled_at): the part of a window
-- that had already passed stays planned maintenance in the uptime.
CREATE TABLE maintenance_windows (
  id            text PRIMARY KEY,                 -- mnt_…
  host_id       text NOT NULL REFERENCES hosts (id) ON DELETE CASCADE,
  starts_at     timestamptz NOT NULL,
  ends_at       timestamptz NOT NULL,
  drain         boolean NOT NULL DEFAULT false,   -- true: no new reservation from created_at until ends_at
  reason        text NOT NULL,
  created_by    text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  cancelled_at  timestamptz,
  CHECK (ends_at > starts_at)
);
CREATE INDEX maintenance_windows_host_idx ON maintenance_windows (host_id, ends_at) WHERE cancelled_at IS NULL;
COMMENT ON TABLE maintenance_windows IS 'owner: fleet';

-- The windows in force and the time each keeps free of new reservations ("blocked"): the window
-- itself, or for a drain window everything from its creation until it ends.
CREATE VIEW maintenance_windows_view AS
  SELECT id, host_id, starts_at, ends_at, drain, reason, created_at,
         tstzrange(CASE WHEN drain THEN least(created_at, starts_at) ELSE starts_at END, ends_at) AS blocked
  FROM maintenance_windows WHERE cancelled_at IS NULL;
COMMENT ON VIEW maintenance_windows_view IS 'owner: fleet; read by catalog, reservations';

-- Uptime per host over the last 24 h, 7 d and 30 d:
--   served      time in a status that serves renters (anything but enrolling, pending,
--               deactivated and the legacy maintenance status; so active, offline, and any later
--               status such as degraded)
--   planned     the host's maintenance windows (a cancelled one up to its cancellation)
--   counted     served - planned             down = offline - planned
--   uptime      1 - down / counted (null when counted is 0)
--   maintenance served * planned (planned maintenance that fell in served time)
CREATE VIEW host_uptime_view AS
  -- only the last 30 days of history, and the status each host had when they began, so the work
  -- does not grow with the years of history kept
  WITH recent AS (
    SELECT id, host_id, at, to_status FROM host_status_history WHERE at >= now() - interval '30 days'
    UNION ALL
    SELECT * FROM (SELECT DISTINCT ON (host_id) id, host_id, at, to_status FROM host_status_history
                   WHERE at < now() - interval '30 days' ORDER BY host_id, at DESC, id DESC) AS before),
  segments AS (
    SELECT host_id, to_status AS status,
           tstzrange(at, lead(at, 1, 'infinity') OVER (PARTITION BY host_id ORDER BY at, id)) AS during
    FROM recent),
  planned AS (
    SELECT host_id, range_agg(tstzrange(starts_at, least(ends_at, coalesce(cancelled_at, ends_at)))) AS during
    FROM maintenance_windows WHERE cancelled_at IS NULL OR cancelled_at > starts_at GROUP BY host_id),
  periods AS (
    SELECT h.id AS host_id, p.name, tstzrange(now() - p.span, now()) AS span
    FROM hosts h CROSS JOIN (VALUES ('24h', interval '24 hours'), ('7d', interval '7 days'),
                                    ('30d', interval '30 days')) AS p (name, span)),
  measured AS (
    SELECT p.host_id, p.name,
           coalesce(range_agg(s.during * p.span) FILTER (
             WHERE s.status NOT IN ('enrolling', 'pending', 'deactivated', 'maintenance')), '{}') AS served,
           coalesce(range_agg(s.during * p.span) FILTER (WHERE s.status = 'offline'), '{}') AS down
    FROM periods p LEFT JOIN segments s ON s.host_id = p.host_id AND s.during && p.span
    GROUP BY p.host_id, p.name),
  seconds AS (
    SELECT m.host_id, m.name,
           (SELECT coalesce(sum(extract(epoch FROM upper(r) - lower(r))), 0)
            FROM unnest(m.served - coalesce(pl.during, '{}')) AS r) AS counted,
           (SELECT coalesce(sum(extract(epoch FROM upper(r) - lower(r))), 0)
            FROM unnest(m.down - coalesce(pl.during, '{}')) AS r) AS down,
           (SELECT coalesce(sum(extract(epoch FROM upper(r) - lower(r))), 0)
            FROM unnest(m.served * coalesce(pl.during, '{}')) AS r) AS maintenance
    FROM measured m LEFT JOIN planned pl ON pl.host_id = m.host_id)
  SELECT host_id,
         max(CASE WHEN counted > 0 THEN 1 - down :: float8 / counted :: float8 END) FILTER (WHERE name = '24h')
           AS uptime_24h,
         max(CASE WHEN counted > 0 THEN 1 - down :: float8 / counted :: float8 END) FILTER (WHERE name = '7d')
           AS uptime_7d,
         max(CASE WHEN counted > 0 THEN 1 - down :: float8 / counted :: float8 END) FILTER (WHERE name = '30d')
           AS uptime_30d,
         max(counted) FILTER (WHERE name = '30d') :: float8 AS counted_seconds_30d,
         max(down) FILTER (WHERE name = '30d') :: float8 AS down_seconds_30d,
         max(maintenance) FILTER (WHERE name = '30d') :: float8 AS maintenance_seconds_30d
  FROM seconds GROUP BY host_id;
COMMENT ON VIEW host_uptime_view IS 'owner: fleet; read by catalog, operator';
