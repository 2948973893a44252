-- owner: sandbox. The key of the sandbox's fault and test controls (/sandbox/hosts/_test/…,
-- /sandbox/stripe/_test/…): random per installation, made by the first node that starts in
-- sandbox mode and shared by every node on this database. It used to be the fixed sandbox Stripe
-- key printed in the README, so anyone who read the README could break a demo's hosts.
CREATE TABLE sandbox_fault_control_key (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  key text NOT NULL CHECK (length(key) >= 32),
  created_at timestamptz NOT NULL DEFAULT now()
);

COMMENT ON TABLE sandbox_fault_control_key IS 'owner: sandbox';
