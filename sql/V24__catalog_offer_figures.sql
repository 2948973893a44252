-- Catalog at scale, part 2 (issue 20): a search reads the window's bookings through an index
-- the planner uses, and each listed offer's slowly changing figures from a small precomputed row.
--
-- Owners:
--   reservations  reservation_gpus_window_idx (an index on its table reservation_gpus)
--   catalog       offer_figures
--
-- The window's bookings. A GiST index on active booked periods reads the bookings of a window
-- 20-100x faster than the exclusion constraint's (gpu_id, period) index, which a scan without
-- gpu_id reads whole; but on `period && …` PostgreSQL 15 costs both alike and takes the
-- exclusion constraint's (index-only: it also holds gpu_id). So this index is on an expression of
-- the period that no other index has, the same range (booked periods are [lower, upper): V5's
-- check), and the catalog asks for `tstzrange(lower(period), upper(period)) && window` through
-- booked_gpus_view, which only this index matches.
CREATE INDEX reservation_gpus_window_idx ON reservation_gpus USING gist (tstzrange(lower(period), upper(period)))
  WHERE active;

-- Per offer, the figures a search shows that change rarely, computed by the same views the
-- operator's pages and the offer page read (offer_prices_view for the price in effect now,
-- host_uptime_view for uptime), refreshed by the catalog when they change: a price set, an offer
-- opened, a host's status or maintenance change (fleet's HostChanges), and by a cluster job.
-- Display only: a quote, a hold and the offer page read the views themselves. A search uses a row
-- only while it provably still holds (columns prices_seen .. price_at for the price, uptime_at
-- for uptime) and otherwise reads the view for that offer, so a missing or outdated row costs
-- time, not a wrong price (except for a moment: a price committed out of id order while a refresh
-- ran, or a host whose GPU model changed; the refresh their events cause corrects both).
CREATE TABLE offer_figures (
  offer_id                 text PRIMARY KEY REFERENCES offers (id) ON DELETE CASCADE,
  host_id                  text NOT NULL,
  -- the price in effect at price_at (null amount: none applied); it holds while no price row newer
  -- than prices_seen exists, no price has taken effect since price_at (a scheduled one reached)
  -- and the host is still at this site; the host's GPU model and VRAM (fleet_hosts_view) as of
  -- then, which narrow a search before its GPUs are counted (the count decides)
  amount_per_gpu_hour      bigint,
  currency                 char(3),
  prices_seen              bigint,
  gpu_model                text,
  vram_gb                  integer,
  site_id                  text,
  price_at                 timestamptz,
  -- host_uptime_view's figures for the offer's host, as of uptime_at
  uptime_24h               float8,
  uptime_7d                float8,
  uptime_30d               float8,
  counted_seconds_30d      float8,
  down_seconds_30d         float8,
  maintenance_seconds_30d  float8,
  uptime_at                timestamptz
);
CREATE INDEX offer_figures_host_idx ON offer_figures (host_id);
COMMENT ON TABLE offer_figures IS 'owner: catalog';
