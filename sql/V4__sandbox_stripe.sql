-- State of the offline Stripe stand-in (sandbox mode only; empty in production). Objects are
-- kept in Stripe's own JSON shapes, so the sandbox answers exactly what it stored.
CREATE SCHEMA sandbox_stripe;

CREATE TABLE sandbox_stripe.objects (
  id       text PRIMARY KEY,                -- cus_…, pm_…, pi_…, ch_…, re_…, cs_test_…, seti_…
  type     text NOT NULL,                   -- the Stripe "object" value
  data     jsonb NOT NULL,
  created  bigint NOT NULL                  -- epoch seconds, as Stripe reports
);
CREATE INDEX sandbox_stripe_objects_type_idx ON sandbox_stripe.objects (type, created DESC, id DESC);
CREATE INDEX sandbox_stripe_objects_customer_idx ON sandbox_stripe.objects ((data ->> 'customer'), type);

CREATE TABLE sandbox_stripe.idempotency_keys (
  key           text PRIMARY KEY,
  request_hash  text NOT NULL,
  status        integer NOT NULL,           -- 0 while the first request is in progress
  body          text,
  created_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sandbox_stripe.events (
  id               text PRIMARY KEY,        -- evt_…
  seq              bigint GENERATED ALWAYS AS IDENTITY UNIQUE,  -- the order events happened in
  type             text NOT NULL,
  created          bigint NOT NULL,
  body             jsonb NOT NULL,
  delivered_at     timestamptz,
  attempts         integer NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz NOT NULL DEFAULT now(),
  locked_until     timestamptz
);
CREATE INDEX sandbox_stripe_events_due_idx ON sandbox_stripe.events (next_attempt_at) WHERE delivered_at IS NULL;
CREATE INDEX sandbox_stripe_events_created_idx ON sandbox_stripe.events (created DESC, id DESC);

CREATE TABLE sandbox_stripe.deliveries (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  event_id   text NOT NULL REFERENCES sandbox_stripe.events (id),
  attempt    integer NOT NULL,
  at         timestamptz NOT NULL DEFAULT now(),
  status     integer,                       -- HTTP status, null when the endpoint was unreachable
  error      text,
  note       text                           -- e.g. 'duplicate', 'dropped' under a test-control mode
);

-- How webhooks go out, set through the sandbox's test-control API: normally, or dropped,
-- duplicated, delayed or reordered (to test how the gateway copes).
CREATE TABLE sandbox_stripe.webhook_control (
  id             integer PRIMARY KEY CHECK (id = 1),
  mode           text NOT NULL DEFAULT 'normal' CHECK (mode IN ('normal', 'drop', 'duplicate', 'delay', 'reorder')),
  delay_seconds  integer NOT NULL DEFAULT 0 CHECK (delay_seconds BETWEEN 0 AND 3600)
);
INSERT INTO sandbox_stripe.webhook_control (id) VALUES (1);
