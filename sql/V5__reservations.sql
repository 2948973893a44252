-- Reservations: N GPUs of an offer for a window, held while unpaid, then confirmed, run, ended.

CREATE TABLE ssh_keys (
  id           text PRIMARY KEY,                          -- key_…
  account_id   text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  name         text NOT NULL,
  public_key   text NOT NULL,
  fingerprint  text NOT NULL,                             -- SHA256:… as ssh-keygen -l prints it
  created_at   timestamptz NOT NULL DEFAULT now(),
  UNIQUE (account_id, fingerprint)
);

CREATE TABLE reservations (
  id                text PRIMARY KEY,                     -- rsv_…
  account_id        text NOT NULL REFERENCES accounts (id),
  offer_id          text NOT NULL REFERENCES offers (id),
  host_id           text NOT NULL REFERENCES hosts (id),
  gpu_count         integer NOT NULL CHECK (gpu_count > 0),
  period            tstzrange NOT NULL CHECK (NOT isempty(period) AND lower_inc(period) AND NOT upper_inc(period)),
  status            text NOT NULL CHECK (status IN ('pending_payment', 'confirmed', 'provisioning', 'running',
                                                     'completed', 'expired', 'cancelled', 'failed')),
  hold_expires_at   timestamptz,
  quote_id          text NOT NULL,
  price             jsonb NOT NULL,                       -- the quote's items, total and rate, locked
  total_amount      bigint NOT NULL CHECK (total_amount >= 0),
  currency          char(3) NOT NULL,
  ssh_public_key    text NOT NULL,
  ssh_fingerprint   text NOT NULL,
  ssh_endpoint      text,
  payment_method    text NOT NULL CHECK (payment_method IN ('checkout', 'saved_card')),
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX reservations_account_idx ON reservations (account_id, created_at DESC, id DESC);
CREATE INDEX reservations_holds_idx ON reservations (hold_expires_at) WHERE status = 'pending_payment';

ALTER TABLE reservation_gpus
  ADD CONSTRAINT reservation_gpus_reservation_fk FOREIGN KEY (reservation_id) REFERENCES reservations (id);

CREATE TABLE reservation_events (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  reservation_id  text NOT NULL REFERENCES reservations (id),
  at              timestamptz NOT NULL DEFAULT now(),
  from_status     text,
  to_status       text NOT NULL,
  cause           text NOT NULL
);
CREATE INDEX reservation_events_reservation_idx ON reservation_events (reservation_id, id);

-- POSTs that create or pay, replayed by Idempotency-Key (per account): the same key with the same
-- request gets the stored response; with a different request, 422.
CREATE TABLE idempotency_keys (
  account_id       text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  key              text NOT NULL,
  request_hash     text NOT NULL,
  response_status  integer,
  response_body    text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, key)
);
