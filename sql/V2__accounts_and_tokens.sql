-- Accounts, the identities people sign in with, roles, and API tokens.

CREATE TABLE accounts (
  id             text        PRIMARY KEY,               -- acc_…
  display_name   text        NOT NULL,
  primary_email  text,
  created_at     timestamptz NOT NULL DEFAULT now()
);

-- One row per provider identity; an account may link several. (provider, subject) is how a
-- returning person is recognised; an email alone never is.
CREATE TABLE identities (
  provider    text        NOT NULL CHECK (provider IN ('github', 'google')),
  subject     text        NOT NULL,
  account_id  text        NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  login       text,
  email       text,
  email_verified boolean  NOT NULL DEFAULT false,
  linked_at   timestamptz NOT NULL DEFAULT now(),
  last_sign_in_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, subject),
  -- an account links at most one identity per provider
  UNIQUE (account_id, provider)
);
CREATE INDEX identities_verified_email_idx ON identities (lower(email)) WHERE email_verified;

CREATE TABLE account_roles (
  account_id  text        NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  role        text        NOT NULL CHECK (role IN ('operator')),
  granted_at  timestamptz NOT NULL DEFAULT now(),
  granted_by  text        NOT NULL,
  PRIMARY KEY (account_id, role)
);

-- Only a SHA-256 of each secret is kept; the secret itself is shown once at creation.
CREATE TABLE api_tokens (
  id            text        PRIMARY KEY,               -- tok_…
  account_id    text        NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  name          text        NOT NULL,
  prefix        text        NOT NULL,
  secret_hash   bytea       NOT NULL UNIQUE,
  scopes        text[]      NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz,
  last_used_at  timestamptz,
  revoked_at    timestamptz
);
CREATE INDEX api_tokens_account_idx ON api_tokens (account_id, created_at DESC, id DESC);
