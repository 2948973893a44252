-- The gateway as the OAuth 2.1 authorization server for MCP clients (issue 21). A grant (what a
-- person consented to for one client) is a row of api_tokens of kind 'oauth': its scopes, its
-- budget (token_budgets), its revocation and the spending of the reservations it makes are those
-- of an API token, checked by the same code. It has no usable gpr_ secret of its own (its
-- secret_hash is the hash of a secret that is thrown away); callers present short-lived access
-- tokens and rotate refresh tokens, stored here as SHA-256 hashes only.
ALTER TABLE api_tokens ADD COLUMN kind text NOT NULL DEFAULT 'api' CHECK (kind IN ('api', 'oauth'));

-- Clients registered dynamically (RFC 7591). Clients identified by a metadata document URL are
-- fetched, not stored.
CREATE TABLE oauth_clients (
  id            text PRIMARY KEY,                -- mcpc_…
  client_name   text NOT NULL,
  redirect_uris text[] NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE oauth_clients IS 'owner: auth';

CREATE TABLE oauth_grants (
  token_id      text PRIMARY KEY REFERENCES api_tokens (id) ON DELETE CASCADE,
  client_id     text NOT NULL,                   -- an oauth_clients id or a metadata document URL
  client_name   text NOT NULL,
  redirect_uri  text NOT NULL,
  resource      text NOT NULL                    -- RFC 8707: the one resource its tokens are for
);
COMMENT ON TABLE oauth_grants IS 'owner: auth';

-- Authorization codes: one use, a minute's life, bound to the client, redirect URI, PKCE
-- challenge (S256) and resource.
CREATE TABLE oauth_codes (
  code_hash      bytea PRIMARY KEY,
  token_id       text NOT NULL REFERENCES api_tokens (id) ON DELETE CASCADE,
  client_id      text NOT NULL,
  redirect_uri   text NOT NULL,
  code_challenge text NOT NULL,
  resource       text NOT NULL,
  expires_at     timestamptz NOT NULL,
  used_at        timestamptz
);
COMMENT ON TABLE oauth_codes IS 'owner: auth';

-- Access tokens (kind 'access') and refresh tokens (kind 'refresh'). A refresh token is used
-- once (used_at): presenting it again revokes its grant.
CREATE TABLE oauth_tokens (
  token_hash  bytea PRIMARY KEY,
  token_id    text NOT NULL REFERENCES api_tokens (id) ON DELETE CASCADE,
  kind        text NOT NULL CHECK (kind IN ('access', 'refresh')),
  resource    text NOT NULL,
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX oauth_tokens_grant_idx ON oauth_tokens (token_id);
COMMENT ON TABLE oauth_tokens IS 'owner: auth';
