-- Operators configured by GitHub login (auth.operators.github_logins) are keyed on GitHub's
-- immutable user id: the first identity that signs in with a listed login pins its id here, and
-- from then on only that id is the operator. A login can be renamed and registered by someone
-- else; that someone has another id, so is not an operator.
--   auth  operator_login_pins
CREATE TABLE operator_login_pins (
  login      text PRIMARY KEY CHECK (login = lower(login)),
  subject    text NOT NULL,
  pinned_at  timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE operator_login_pins IS 'owner: auth';
