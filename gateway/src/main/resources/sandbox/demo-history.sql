-- Sandbox demo history (issue 24): the demo fleet's last 30 days, so a fresh demo shows a business
-- (Economics with a margin and a payback, offers with uptime below 100 % and a ready-time p50/p95,
-- Incidents with history) instead of an empty one. Sandbox mode only, with sandbox.seed_history.
--
-- This file is sandbox data written once at boot, like catalog.DemoFleet (demo-offers.sql) and
-- fleet.DemoHosts; it is the one place that writes it, as the owning features would have:
--   auth          accounts: five test renters (no identities: nobody signs in as them)
--   catalog       offers.created_at (the demo offers opened 30 days ago); prices: an L40S
--                 promotion (0.69) that ended 14 days ago (back to the list price 0.79)
--   fleet         hosts.created_at; host_status_history (fra-l40s-01 offline once for 2 h 40 min);
--                 instances (stopped, not desired: due, delivered and first running times, each
--                 demo image template in turn, a pull every eighth round: ready times per template);
--                 host_telemetry_hourly, gpu_telemetry_hourly (measured power, so energy)
--   reservations  reservations (completed), reservation_gpus, reservation_events, reservation_credits
--                 (a ready_late credit and the downtime credits of the offline host)
--   payments      payments (saved-card charges with Stripe's card fee), refunds (the credits),
--                 ledger_transactions and ledger_entries (charge, card_fee, refund: each balances)
--   sandbox       sandbox_stripe.objects: each payment's intent, charge and balance transaction, each
--                 refund and its balance transaction, as the sandbox's Stripe would have stored them
--   operator      alert_incidents: host_offline and ready_deadline_missed, opened and resolved
-- Everything ends before the hour of the first start: nothing is left for the scheduler, the
-- agents, the reconciler (no Stripe event refers to it, every card fee is recorded) or the alert
-- rules (the late start is days old) to act on. Amounts follow the code: pricing.PriceCalculator
-- with the default terms (3 % platform fee, no tax, 5 % off from 24 h), reservations.Credits (a
-- started hour's share of the captured amount), payments.Ledger, Stripe's 2.9 % + 30 cents.
--
-- Once: in one transaction, behind an advisory lock (several nodes starting at once wait for the
-- first and find its work), only on a database without any reservation; the marker is the
-- account acc_demo_history (present: seeded already, skip). The work is split into statements
-- that each take well under the pool's statement timeout (db.statement_timeout_ms) on a loaded
-- machine: every statement after the first acts only when demo_history_run says this run seeds.

-- a node that finds another seeding waits in steps of a second (the pool drops a connection that is
-- silent for longer than a statement may run): it retries the whole transaction (DemoHistory)
SET LOCAL lock_timeout = '1s';
SELECT pg_advisory_xact_lock(hashtextextended('sandbox:demo-history', 0));

-- this run's decision and its times (now() is the transaction's start: one clock for every statement)
CREATE TEMP TABLE demo_history_run ON COMMIT DROP AS
SELECT NOT EXISTS (SELECT 1 FROM accounts WHERE id = 'acc_demo_history') AND NOT EXISTS (SELECT 1 FROM reservations)
         AND EXISTS (SELECT 1 FROM offers WHERE id = 'off_fra_l40s_01') AS seeding,
       date_trunc('hour', now()) - interval '30 days' AS t0,
       date_trunc('hour', now()) - interval '1 hour' AS horizon,
       date_trunc('hour', now()) - interval '12 days' + interval '3 hours 12 minutes' AS down_from,
       date_trunc('hour', now()) - interval '12 days' + interval '5 hours 52 minutes' AS down_to,
       date_trunc('hour', now()) - interval '14 days' AS promo_end,
       date_trunc('hour', now()) - interval '9 days' AS late_after,
       setseed(0.24)::text AS seeded_random;

-- the renters, the fleet since 30 days ago (economics counts available hours from an offer's
-- opening), its one offline episode, and a price change: an L40S promotion, then the list price
INSERT INTO accounts (id, display_name, primary_email, created_at)
SELECT a.id, a.name, a.email, r.t0 - a.days * interval '1 day'
FROM demo_history_run r, (VALUES
    ('acc_demo_history', 'Demo history (sandbox marker)', NULL, 40),
    ('acc_demo_ada', 'Ada (Lovelace Labs)', 'ada@renters.demo.invalid', 35),
    ('acc_demo_grace', 'Grace (Hopper Robotics)', 'grace@renters.demo.invalid', 33),
    ('acc_demo_alan', 'Alan (Turing Vision)', 'alan@renters.demo.invalid', 20),
    ('acc_demo_katherine', 'Katherine (Johnson Orbital)', 'katherine@renters.demo.invalid', 31),
    ('acc_demo_linus', 'Linus (weekend fine-tunes)', 'linus@renters.demo.invalid', 10)) AS a (id, name, email, days)
WHERE r.seeding;
UPDATE hosts h SET created_at = least(h.created_at, r.t0 - interval '1 day') FROM demo_history_run r
WHERE r.seeding AND h.id IN (SELECT host_id FROM offers WHERE id LIKE 'off\_%\_01');
UPDATE offers o SET created_at = least(o.created_at, r.t0) FROM demo_history_run r
WHERE r.seeding AND o.id LIKE 'off\_%\_01';
INSERT INTO host_status_history (host_id, at, from_status, to_status)
SELECT o.host_id, r.t0 - interval '1 day', NULL, 'active' FROM offers o, demo_history_run r
WHERE r.seeding AND o.id LIKE 'off\_%\_01'
UNION ALL SELECT 'host_fra_l40s_01', r.down_from, 'active', 'offline' FROM demo_history_run r WHERE r.seeding
UNION ALL SELECT 'host_fra_l40s_01', r.down_to, 'offline', 'active' FROM demo_history_run r WHERE r.seeding;
INSERT INTO prices (offer_id, amount_per_gpu_hour, currency, effective_from, set_by, created_at)
SELECT 'off_fra_l40s_01', 69, 'usd', r.t0 - interval '2 days', 'operator', r.t0 - interval '3 days'
FROM demo_history_run r WHERE r.seeding
UNION ALL SELECT 'off_fra_l40s_01', 79, 'usd', r.promo_end, 'operator', r.promo_end - interval '1 day'
FROM demo_history_run r WHERE r.seeding
ON CONFLICT DO NOTHING;

-- each lane is a fixed set of a host GPUs rented back to back with gaps: no two overlap; the
-- larger the gap scale, the longer the idle time between rentals (a mean gap of 3 h × scale after
-- rentals of 21 h on average: 94 % utilization at 0.35, 80 % at 1.5; the big GPUs sell best)
CREATE TEMP TABLE demo_history_lanes ON COMMIT DROP AS
SELECT * FROM (VALUES
    ('host_nyc_h200_01', 'off_nyc_h200_01', '{0,1,2,3}'::int[], 0.4),
    ('host_nyc_h200_01', 'off_nyc_h200_01', '{4,5}'::int[], 0.5),
    ('host_nyc_h200_01', 'off_nyc_h200_01', '{6}'::int[], 0.7),
    ('host_nyc_h200_01', 'off_nyc_h200_01', '{7}'::int[], 0.9),
    ('host_nyc_h100_01', 'off_nyc_h100_01', '{0,1,2,3,4,5,6,7}'::int[], 0.35),
    ('host_fra_a100_01', 'off_fra_a100_01', '{0,1}'::int[], 0.8),
    ('host_fra_a100_01', 'off_fra_a100_01', '{2}'::int[], 1.0),
    ('host_fra_a100_01', 'off_fra_a100_01', '{3}'::int[], 1.2),
    ('host_fra_l40s_01', 'off_fra_l40s_01', '{0,1,2,3}'::int[], 0.7),
    ('host_fra_l40s_01', 'off_fra_l40s_01', '{4,5}'::int[], 0.9),
    ('host_fra_l40s_01', 'off_fra_l40s_01', '{6}'::int[], 1.2),
    ('host_fra_l40s_01', 'off_fra_l40s_01', '{7}'::int[], 1.5),
    ('host_osl_4090_01', 'off_osl_4090_01', '{0,1}'::int[], 1.0),
    ('host_osl_4090_01', 'off_osl_4090_01', '{2}'::int[], 1.2),
    ('host_osl_4090_01', 'off_osl_4090_01', '{3}'::int[], 1.5),
    ('host_osl_5090_01', 'off_osl_5090_01', '{0}'::int[], 1.0),
    ('host_osl_5090_01', 'off_osl_5090_01', '{1}'::int[], 1.2)) AS l (host_id, offer_id, idx, gap_scale);

-- one host rentals: reservation, its GPUs and events, the instance with its due, delivered and
-- first running times, the saved-card payment, and the ledger charge and card fee (a temporary
-- function, dropped at the end, so each host is a statement of its own)
CREATE OR REPLACE FUNCTION pg_temp.demo_history_host(p_host text) RETURNS integer LANGUAGE plpgsql AS $host$
DECLARE
  v_run        record;
  v_lane       record;
  v_renters    text[] := ARRAY['acc_demo_ada', 'acc_demo_grace', 'acc_demo_alan', 'acc_demo_katherine', 'acc_demo_linus'];
  v_durations  int[] := ARRAY[2, 4, 6, 8, 12, 12, 24, 24, 48, 72];
  v_ssh_key    text := 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDemoHistoryDemoHistoryDemoHistoryDemoHist demo@renter';
  v_count      int := 0;
  v_n          int;
  v_late_done  boolean := false;
  v_t          timestamptz;
  v_s          timestamptz;
  v_e          timestamptz;
  v_created    timestamptz;
  v_dur        int;
  v_g          int;
  v_rate       bigint;
  v_base       bigint;
  v_disc_bps   int;
  v_disc       bigint;
  v_fee        bigint;
  v_total      bigint;
  v_ready      double precision;
  v_rid        text;
  v_items      jsonb;
  v_gpu_ids    text[];
  v_addr       text;
  v_templates  text[];
  v_image      text;
  v_image_ref  text;
  v_pulled     boolean;
BEGIN
  SELECT * INTO v_run FROM demo_history_run;
  v_templates := ARRAY(SELECT id FROM image_templates WHERE id LIKE 'img\_demo\_%' AND retired_at IS NULL ORDER BY id);
  SELECT coalesce(max(substr(id, 9)::int), 0) INTO v_n FROM reservations WHERE id LIKE 'rsv\_demo%';
  FOR v_lane IN SELECT * FROM demo_history_lanes WHERE host_id = p_host LOOP
    SELECT h.public_address INTO v_addr FROM hosts h WHERE h.id = v_lane.host_id;
    v_gpu_ids := ARRAY(SELECT id FROM gpus WHERE host_id = v_lane.host_id AND idx = ANY (v_lane.idx) ORDER BY idx);
    v_g := cardinality(v_lane.idx);
    v_t := v_run.t0 + floor(random() * 8) * interval '1 hour';
    LOOP
      v_dur := v_durations[1 + floor(random() * cardinality(v_durations))::int];
      v_s := v_t;
      -- the last rental of a lane ends by the horizon: the lanes stay busy up to the first start
      v_dur := least(v_dur, floor(extract(epoch FROM v_run.horizon - v_s) / 3600)::int);
      EXIT WHEN v_dur < 1;
      v_e := v_s + v_dur * interval '1 hour';
      -- nothing starts on a host while it is offline
      IF v_lane.host_id = 'host_fra_l40s_01' AND v_s >= v_run.down_from - interval '1 hour' AND v_s < v_run.down_to THEN
        v_t := date_trunc('hour', v_run.down_to) + interval '1 hour';
        CONTINUE;
      END IF;
      v_n := v_n + 1;
      v_count := v_count + 1;
      v_rid := 'rsv_demo' || lpad(v_n::text, 4, '0');
      v_created := v_s - (1 + floor(random() * 30)) * interval '1 hour' - floor(random() * 3600) * interval '1 second';
      SELECT amount_per_gpu_hour INTO v_rate FROM prices
      WHERE offer_id = v_lane.offer_id AND effective_from <= v_created ORDER BY effective_from DESC LIMIT 1;
      v_base := v_rate * v_g * v_dur;
      v_disc_bps := CASE WHEN v_dur >= 168 THEN 1500 WHEN v_dur >= 24 THEN 500 ELSE 0 END;
      v_disc := round(v_base * v_disc_bps / 10000.0);
      v_fee := round((v_base - v_disc) * 300 / 10000.0);
      v_total := v_base - v_disc + v_fee;
      v_items := jsonb_build_array(jsonb_build_object('kind', 'base', 'description',
          v_g || CASE WHEN v_g = 1 THEN ' GPU' ELSE ' GPUs' END || ' × ' || v_dur || ' h × '
            || to_char(v_rate / 100.0, 'FM990.00') || ' USD per GPU-hour',
          'amount', jsonb_build_object('amount', v_base, 'currency', 'usd')));
      IF v_disc > 0 THEN
        v_items := v_items || jsonb_build_array(jsonb_build_object('kind', 'duration_discount',
            'description', '5 % off for ' || v_dur || ' h or more',
            'amount', jsonb_build_object('amount', -v_disc, 'currency', 'usd')));
      END IF;
      v_items := v_items || jsonb_build_array(jsonb_build_object('kind', 'platform_fee', 'description', 'Platform fee 3 %',
          'amount', jsonb_build_object('amount', v_fee, 'currency', 'usd')));
      -- the image: the demo templates in turn, so each host has ready samples for every one; and
      -- time-to-ready: mostly a cached image (seconds), and every eighth round of templates a pull
      -- (minutes), so each template has a pulled figure too; once too late
      v_image := v_templates[1 + (v_count - 1) % cardinality(v_templates)];
      SELECT ref INTO v_image_ref FROM image_templates WHERE id = v_image;
      v_pulled := ((v_count - 1) / cardinality(v_templates)) % 8 = 3;
      v_ready := CASE WHEN v_pulled THEN 90 + random() * 150 ELSE 12 + random() * 38 END;
      IF NOT v_late_done AND v_lane.host_id = 'host_fra_a100_01' AND v_s >= v_run.late_after THEN
        v_ready := 17 * 60 + 23;
        v_late_done := true;
      END IF;

      INSERT INTO reservations (id, account_id, offer_id, host_id, gpu_count, period, status, quote_id, price,
                                total_amount, currency, ssh_public_key, ssh_fingerprint, payment_method, created_at,
                                updated_at, due_at, image_template_id, image_ref)
      VALUES (v_rid, v_renters[1 + floor(random() * 5)::int], v_lane.offer_id, v_lane.host_id, v_g, tstzrange(v_s, v_e), 'completed',
              'quo_demo' || lpad(v_n::text, 4, '0'),
              jsonb_build_object('quote_id', 'quo_demo' || lpad(v_n::text, 4, '0'), 'items', v_items,
                'total', jsonb_build_object('amount', v_total, 'currency', 'usd'),
                'price_per_gpu_hour', jsonb_build_object('amount', round(v_total::numeric / (v_g * v_dur)), 'currency', 'usd'),
                'cancellation_policy', 'Cancel before the start for a full refund. After the start, the unused whole'
                  || ' hours are refunded minus a 10 % cancellation fee; hours already begun are not. Downtime is'
                  || ' credited automatically.',
                'cancellation_fee_bps', 1000,
                'ready_guarantee', 'If your instance is not running within 10 minutes of the start (or of your'
                  || ' payment, if later), every started hour of delay is credited to your card automatically; if it'
                  || ' never starts before the window ends, you get everything back. Downtime while it runs is'
                  || ' credited by the started hour.'),
              v_total, 'usd', v_ssh_key, 'SHA256:demoHistoryRenterKeyFingerprint0000000000', 'saved_card', v_created, v_e, v_s,
              v_image, v_image_ref);
      INSERT INTO reservation_gpus (reservation_id, gpu_id, period) SELECT v_rid, unnest(v_gpu_ids), tstzrange(v_s, v_e);
      INSERT INTO reservation_events (reservation_id, at, from_status, to_status, cause) VALUES
        (v_rid, v_created, NULL, 'pending_payment', 'created'),
        (v_rid, v_created + interval '3 seconds', 'pending_payment', 'confirmed', 'payment succeeded'),
        (v_rid, v_s, 'confirmed', 'provisioning', 'window started; starting the instance on the host'),
        (v_rid, v_s + v_ready * interval '1 second', 'provisioning', 'running', 'the host reports the instance running'),
        (v_rid, v_e, 'running', 'completed', 'window ended');
      INSERT INTO instances (reservation_id, host_id, gpu_indexes, ssh_public_key, unix_user, ends_at, desired, state,
                             ssh_host, ssh_port, ssh_user, reported_at, created_at, updated_at, due_at, delivered_at,
                             running_at, image_ref, pull_bytes_done, pull_bytes_total)
      VALUES (v_rid, v_lane.host_id, v_lane.idx, v_ssh_key, 'rsv_' || left(encode(sha256(convert_to(v_rid, 'UTF8')), 'hex'), 16),
              v_e, false, 'stopped', v_addr, 22000 + v_n % 1000, 'rsv_' || left(encode(sha256(convert_to(v_rid, 'UTF8')), 'hex'), 16),
              v_e + interval '4 seconds', v_s, v_e + interval '4 seconds', v_s, v_s + (1 + random() * 2) * interval '1 second',
              v_s + v_ready * interval '1 second', v_image_ref,
              -- a pull is what the ready views tell apart: the agent stores its progress, a cached start has none
              CASE WHEN v_pulled THEN 9000000000 END, CASE WHEN v_pulled THEN 9000000000 END);
      INSERT INTO payments (id, reservation_id, account_id, kind, payment_intent_id, amount, currency, status,
                            created_at, updated_at, balance_transaction_id, card_fee)
      SELECT 'pay_demo' || lpad(v_n::text, 4, '0'), v_rid, r.account_id, 'charge', 'pi_demo' || lpad(v_n::text, 4, '0'),
             v_total, 'usd', 'succeeded', v_created, v_created + interval '3 seconds', 'txn_demo' || lpad(v_n::text, 4, '0'),
             round(v_total * 0.029) + 30
      FROM reservations r WHERE r.id = v_rid;
      WITH tx AS (INSERT INTO ledger_transactions (kind, ref, at)
                  VALUES ('charge', 'pi_demo' || lpad(v_n::text, 4, '0'), v_created + interval '3 seconds') RETURNING id)
      INSERT INTO ledger_entries (transaction_id, account, amount, currency)
      SELECT tx.id, x.account, x.amount, 'usd' FROM tx, (VALUES ('asset:stripe_clearing', v_total),
        ('revenue:gpu_hours', -(v_base - v_disc)), ('revenue:platform_fee', -v_fee), ('liability:tax', 0::bigint)) x (account, amount);
      WITH tx AS (INSERT INTO ledger_transactions (kind, ref, at)
                  VALUES ('card_fee', 'txn_demo' || lpad(v_n::text, 4, '0'), v_created + interval '5 seconds') RETURNING id)
      INSERT INTO ledger_entries (transaction_id, account, amount, currency)
      SELECT tx.id, x.account, x.amount, 'usd' FROM tx, (VALUES ('expense:card_fees', round(v_total * 0.029) + 30),
        ('asset:stripe_clearing', -(round(v_total * 0.029) + 30))) x (account, amount);
      v_t := v_e + floor(random() * 7 * v_lane.gap_scale) * interval '1 hour';
    END LOOP;
  END LOOP;
  RETURN v_count;
END
$host$;

SELECT pg_temp.demo_history_host(h.id) FROM demo_history_run r, (VALUES (1, 'host_nyc_h200_01')) AS h (o, id) WHERE r.seeding;
SELECT pg_temp.demo_history_host(h.id) FROM demo_history_run r, (VALUES (2, 'host_nyc_h100_01')) AS h (o, id) WHERE r.seeding;
SELECT pg_temp.demo_history_host(h.id) FROM demo_history_run r, (VALUES (3, 'host_fra_a100_01')) AS h (o, id) WHERE r.seeding;
SELECT pg_temp.demo_history_host(h.id) FROM demo_history_run r, (VALUES (4, 'host_fra_l40s_01')) AS h (o, id) WHERE r.seeding;
SELECT pg_temp.demo_history_host(h.id) FROM demo_history_run r, (VALUES (5, 'host_osl_4090_01')) AS h (o, id) WHERE r.seeding;
SELECT pg_temp.demo_history_host(h.id) FROM demo_history_run r, (VALUES (6, 'host_osl_5090_01')) AS h (o, id) WHERE r.seeding;
DROP FUNCTION pg_temp.demo_history_host(text);

-- the credits, as reservations.Credits grants them (a started hour counts whole; the captured
-- amount pro rata) and payments refunds them: the late start (ready guarantee) and the
-- reservations the offline host interrupted
DO $credits$
DECLARE
  v_run     record;
  v_c       record;
  v_rid     text;
  v_hours   int;
  v_amount  bigint;
BEGIN
  SELECT * INTO v_run FROM demo_history_run;
  IF NOT v_run.seeding THEN
    RETURN;
  END IF;
  FOR v_c IN
    SELECT r.id, r.total_amount, upper(r.period) - lower(r.period) AS length, 'ready_late' AS kind, 'ready_credit' AS reason,
           i.due_at AS from_at, i.running_at AS to_at,
           'ready ' || floor(extract(epoch FROM i.running_at - i.due_at) / 60) || ' min after it was due (guarantee: 10 min)'
             AS words
    FROM reservations r JOIN instances i ON i.reservation_id = r.id
    WHERE r.id LIKE 'rsv\_demo%' AND i.running_at - i.due_at > interval '10 minutes'
    UNION ALL
    SELECT r.id, r.total_amount, upper(r.period) - lower(r.period), 'downtime', 'downtime_credit',
           greatest(v_run.down_from, i.running_at), least(v_run.down_to, upper(r.period)),
           'host offline from ' || greatest(v_run.down_from, i.running_at) || ' to ' || least(v_run.down_to, upper(r.period))
    FROM reservations r JOIN instances i ON i.reservation_id = r.id
    WHERE r.id LIKE 'rsv\_demo%' AND r.host_id = 'host_fra_l40s_01' AND i.running_at < v_run.down_to
      AND upper(r.period) > v_run.down_from
    ORDER BY 1
  LOOP
    v_hours := ceil(extract(epoch FROM v_c.to_at - v_c.from_at) / 3600);
    v_amount := v_c.total_amount * v_hours / (extract(epoch FROM v_c.length) / 3600)::bigint;
    v_rid := replace(v_c.id, 'rsv_demo', '') || left(v_c.kind, 1);
    INSERT INTO refunds (id, payment_id, amount, currency, reason, status, stripe_refund_id, attempts, created_at,
                         updated_at)
    VALUES ('rfd_demo' || v_rid, replace(v_c.id, 'rsv_', 'pay_'), v_amount, 'usd', v_c.reason, 'succeeded', 're_demo' || v_rid, 1,
            v_c.to_at, v_c.to_at + interval '2 seconds');
    UPDATE payments SET amount_refunded = amount_refunded + v_amount, updated_at = v_c.to_at + interval '2 seconds'
    WHERE id = replace(v_c.id, 'rsv_', 'pay_');
    WITH tx AS (INSERT INTO ledger_transactions (kind, ref, at)
                VALUES ('refund', 're_demo' || v_rid, v_c.to_at + interval '2 seconds') RETURNING id)
    INSERT INTO ledger_entries (transaction_id, account, amount, currency)
    SELECT tx.id, x.account, x.amount, 'usd' FROM tx,
      (VALUES ('contra_revenue:refunds', v_amount), ('asset:stripe_clearing', -v_amount)) x (account, amount);
    INSERT INTO reservation_credits (id, reservation_id, kind, reason, from_at, to_at, hours, amount, currency,
                                     refund_ids, created_at)
    VALUES ('crd_demo' || v_rid, v_c.id, v_c.kind, v_c.words, v_c.from_at, v_c.to_at, v_hours, v_amount, 'usd',
            ARRAY['rfd_demo' || v_rid], v_c.to_at);
    INSERT INTO reservation_events (reservation_id, at, from_status, to_status, cause)
    VALUES (v_c.id, v_c.to_at, 'running', 'running', 'credited $' || to_char(v_amount / 100.0, 'FM999990.00') || ' ('
            || v_hours || ' h): ' || v_c.words);
  END LOOP;

END
$credits$;

-- the same payments and refunds in the sandbox's Stripe (sandbox_stripe.objects, in the shapes
-- sandbox.stripe.Objects and BalanceTransactions write), so they are real there: an operator's
-- later refund of a seeded reservation is refunded by Stripe like any other, and the charge knows
-- what the seeded credits took already. No events: the reconciler has nothing of theirs to apply.
INSERT INTO sandbox_stripe.objects (id, type, data, created)
SELECT o.data ->> 'id', o.data ->> 'object', o.data, (o.data ->> 'created')::bigint
FROM demo_history_run r, payments p,
LATERAL (VALUES
  (jsonb_build_object('id', p.payment_intent_id, 'object', 'payment_intent',
     'created', extract(epoch FROM p.created_at)::bigint, 'livemode', false, 'amount', p.amount,
     'amount_capturable', 0, 'amount_received', p.amount, 'currency', p.currency, 'customer', NULL,
     'description', 'Reservation ' || p.reservation_id, 'payment_method', NULL, 'capture_method', 'automatic_async',
     'confirmation_method', 'automatic', 'client_secret', p.payment_intent_id || '_secret_demo',
     'metadata', jsonb_build_object('reservation_id', p.reservation_id, 'payment_id', p.id),
     'payment_method_types', jsonb_build_array('card'), 'latest_charge', replace(p.payment_intent_id, 'pi_', 'ch_'),
     'last_payment_error', NULL, 'next_action', NULL, 'canceled_at', NULL, 'cancellation_reason', NULL,
     'status', 'succeeded')),
  (jsonb_build_object('id', replace(p.payment_intent_id, 'pi_', 'ch_'), 'object', 'charge',
     'created', extract(epoch FROM p.updated_at)::bigint, 'livemode', false, 'amount', p.amount,
     'amount_captured', p.amount, 'amount_refunded', p.amount_refunded, 'currency', p.currency, 'customer', NULL,
     'payment_intent', p.payment_intent_id, 'payment_method', NULL,
     'metadata', jsonb_build_object('reservation_id', p.reservation_id, 'payment_id', p.id), 'paid', true,
     'balance_transaction', p.balance_transaction_id, 'captured', true, 'refunded', p.amount_refunded = p.amount,
     'status', 'succeeded')),
  (jsonb_build_object('id', p.balance_transaction_id, 'object', 'balance_transaction',
     'created', extract(epoch FROM p.updated_at)::bigint, 'livemode', false, 'amount', p.amount, 'fee', p.card_fee,
     'net', p.amount - p.card_fee, 'currency', p.currency, 'type', 'charge', 'reporting_category', 'charge',
     'source', replace(p.payment_intent_id, 'pi_', 'ch_'), 'status', 'available',
     'available_on', extract(epoch FROM p.updated_at)::bigint + 2 * 86400, 'description', NULL,
     'exchange_rate', NULL, 'balance_type', 'payments',
     'fee_details', jsonb_build_array(jsonb_build_object('amount', p.card_fee, 'currency', p.currency,
       'type', 'stripe_fee', 'description', 'Stripe processing fees', 'application', NULL))))) AS o (data)
WHERE r.seeding AND p.id LIKE 'pay\_demo%';
INSERT INTO sandbox_stripe.objects (id, type, data, created)
SELECT o.data ->> 'id', o.data ->> 'object', o.data, (o.data ->> 'created')::bigint
FROM demo_history_run r, refunds f JOIN payments p ON p.id = f.payment_id,
LATERAL (VALUES
  (jsonb_build_object('id', f.stripe_refund_id, 'object', 'refund', 'created', extract(epoch FROM f.updated_at)::bigint,
     'livemode', false, 'amount', f.amount, 'currency', f.currency,
     'charge', replace(p.payment_intent_id, 'pi_', 'ch_'), 'payment_intent', p.payment_intent_id, 'reason', NULL,
     'metadata', jsonb_build_object('refund_id', f.id), 'status', 'succeeded',
     'balance_transaction', replace(f.stripe_refund_id, 're_', 'txn_re_'))),
  (jsonb_build_object('id', replace(f.stripe_refund_id, 're_', 'txn_re_'), 'object', 'balance_transaction',
     'created', extract(epoch FROM f.updated_at)::bigint, 'livemode', false, 'amount', -f.amount, 'fee', 0,
     'net', -f.amount, 'currency', f.currency, 'type', 'refund', 'reporting_category', 'refund',
     'source', f.stripe_refund_id, 'status', 'available',
     'available_on', extract(epoch FROM f.updated_at)::bigint + 2 * 86400, 'description', NULL,
     'exchange_rate', NULL, 'balance_type', 'payments', 'fee_details', '[]'::jsonb))) AS o (data)
WHERE r.seeding AND f.id LIKE 'rfd\_demo%';

-- the incidents those caused, opened and resolved (as the alert rules would have)
INSERT INTO alert_incidents (id, rule, target, status, opened_at, last_seen_at, resolved_at, details)
SELECT 'inc_demo_offline', 'host_offline', h.id, 'resolved', r.down_from + interval '90 seconds', r.down_to,
       r.down_to + interval '15 seconds',
       jsonb_build_object('host_id', h.id, 'host_name', h.name, 'site', h.site_name)
FROM fleet_hosts_view h, demo_history_run r WHERE r.seeding AND h.id = 'host_fra_l40s_01';
INSERT INTO alert_incidents (id, rule, target, status, opened_at, last_seen_at, resolved_at, details)
SELECT 'inc_demo_ready', 'ready_deadline_missed', r.id, 'resolved', i.due_at + interval '10 minutes 9 seconds',
       i.running_at + interval '24 hours', i.running_at + interval '24 hours 15 seconds',
       jsonb_build_object('reservation_id', r.id, 'host_id', r.host_id, 'due_at', i.due_at,
                          'missed_at', i.due_at + interval '10 minutes', 'running_at', i.running_at)
FROM reservations r JOIN instances i ON i.reservation_id = r.id, demo_history_run run
WHERE run.seeding AND r.id LIKE 'rsv\_demo%' AND i.running_at - i.due_at > interval '10 minutes';


-- hourly telemetry: each GPU utilization and power from the hours it was rented, the host wall
-- power from its GPUs plus the rest of the server; no rows while the host was offline (unknown)
CREATE TEMP TABLE demo_history_gpu_hours ON COMMIT DROP AS
WITH busy AS (
  SELECT rg.gpu_id, hr.hour,
         sum(extract(epoch FROM upper(rg.period * tstzrange(hr.hour, hr.hour + interval '1 hour'))
                                - lower(rg.period * tstzrange(hr.hour, hr.hour + interval '1 hour')))) / 3600.0 AS busy
  FROM demo_history_run r, reservation_gpus rg
  CROSS JOIN generate_series(date_trunc('hour', lower(rg.period)), upper(rg.period) - interval '1 second',
                             interval '1 hour') AS hr (hour)
  WHERE r.seeding AND rg.reservation_id LIKE 'rsv\_demo%'
  GROUP BY rg.gpu_id, hr.hour)
SELECT gg.host_id, gg.idx, hr.hour, coalesce(b.busy, 0) AS busy, p.idle_w, p.peak_w, p.server_w, p.temp_idle
FROM demo_history_run r
CROSS JOIN gpus gg
JOIN (VALUES ('host_nyc_h200_01', 90.0, 650.0, 1300.0, 34.0), ('host_nyc_h100_01', 80.0, 620.0, 1200.0, 33.0),
             ('host_fra_a100_01', 60.0, 360.0, 700.0, 31.0), ('host_fra_l40s_01', 35.0, 300.0, 650.0, 30.0),
             ('host_osl_4090_01', 25.0, 380.0, 260.0, 28.0), ('host_osl_5090_01', 30.0, 480.0, 180.0, 29.0))
  AS p (host_id, idle_w, peak_w, server_w, temp_idle) ON p.host_id = gg.host_id
CROSS JOIN generate_series(r.t0, r.horizon, interval '1 hour') AS hr (hour)
LEFT JOIN busy b ON b.gpu_id = gg.id AND b.hour = hr.hour
WHERE r.seeding
  AND NOT (gg.host_id = 'host_fra_l40s_01' AND hr.hour >= date_trunc('hour', r.down_from) AND hr.hour < r.down_to);

INSERT INTO gpu_telemetry_hourly (host_id, gpu_index, hour, samples, covered_seconds, temperature_min_c,
                                  temperature_avg_c, temperature_max_c, power_draw_w_avg, energy_wh,
                                  utilization_avg_pct)
SELECT host_id, idx, hour, 60, 3600, temp_idle, temp_idle + busy * 38, temp_idle + busy * 46,
       idle_w + busy * (peak_w - idle_w) * 0.82, idle_w + busy * (peak_w - idle_w) * 0.82, busy * 91
FROM demo_history_gpu_hours
ON CONFLICT DO NOTHING;

INSERT INTO host_telemetry_hourly (host_id, hour, samples, measured_samples, covered_seconds, power_w_avg, energy_wh,
                                   disk_free_gb_min, rtt_ms_avg)
SELECT host_id, hour, 60, 60, 3600, max(server_w) + sum(idle_w + busy * (peak_w - idle_w) * 0.82) + avg(busy) * 250,
       max(server_w) + sum(idle_w + busy * (peak_w - idle_w) * 0.82) + avg(busy) * 250,
       2800 - avg(busy) * 600, 18 + random() * 6
FROM demo_history_gpu_hours GROUP BY host_id, hour
ON CONFLICT DO NOTHING;
