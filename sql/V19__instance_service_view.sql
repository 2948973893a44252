-- Whether the fleet serves each running instance now, for the reservations' level-triggered
-- downtime check: the fleet tells a reservation when its host goes offline or a GPU turns faulty
-- (and when it is back), but a notice lost to a failure after the fleet's commit would leave it
-- uncredited, or billed on a dead host. The reservations' scheduler compares this view with its
-- open interruptions on every pass and repairs any difference.
--
-- Views:
--   instance_service_view   owner fleet; read by reservations
--
--   down        the host is offline, or one of the instance's GPUs is faulty
--   up          the host is active or degraded and none of the instance's GPUs is faulty
--               (neither: e.g. a host deactivated while offline, whose heartbeats are not tracked)
--   reason      as the fleet's notice words it ('host offline', 'gpu faulty: GPU n, …')
--   down_since  the host's last heartbeat, or when the GPU turned faulty
--   up_since    the latest status change of the host or of the instance's GPUs' health (when it
--               is up: service resumed then at the latest, so a resumption dated by it never
--               credits less than the time lost)
CREATE VIEW instance_service_view AS
  SELECT i.reservation_id, i.host_id,
         (h.status = 'offline' OR coalesce(bool_or(gh.status = 'faulty'), false)) AS down,
         (h.status IN ('active', 'degraded') AND NOT coalesce(bool_or(gh.status = 'faulty'), false)) AS up,
         CASE WHEN h.status = 'offline' THEN 'host offline'
              ELSE 'gpu faulty: GPU ' || min(g.idx) FILTER (WHERE gh.status = 'faulty') || ', '
                   || coalesce(min(gh.reason) FILTER (WHERE gh.status = 'faulty'), 'faulty') END AS reason,
         CASE WHEN h.status = 'offline' THEN coalesce(b.last_at, h.status_changed_at)
              ELSE min(gh.since) FILTER (WHERE gh.status = 'faulty') END AS down_since,
         greatest(h.status_changed_at, max(gh.since)) AS up_since
  FROM instances i
  JOIN hosts h ON h.id = i.host_id
  LEFT JOIN host_heartbeats b ON b.host_id = i.host_id
  LEFT JOIN gpus g ON g.host_id = i.host_id AND g.idx = ANY (i.gpu_indexes)
  LEFT JOIN gpu_health gh ON gh.gpu_id = g.id
  WHERE i.desired AND i.state = 'running'
  GROUP BY i.reservation_id, i.host_id, h.status, h.status_changed_at, b.last_at;
COMMENT ON VIEW instance_service_view IS 'owner: fleet; read by reservations';
