package io.gpurental.gateway.auth.signin;

/** What a completed provider round-trip led to. */
public sealed interface SignInOutcome {
  /** Signed in to an existing or new account. */
  record SignedIn(String accountId) implements SignInOutcome {}

  /** A signed-in account linked another provider's identity. */
  record Linked(String accountId) implements SignInOutcome {}

  /** The verified email belongs to another account; accounts are never merged silently. */
  record EmailInUse(String email, String existingProvider) implements SignInOutcome {}

  /** The identity is already linked to a different account than the one signed in. */
  record IdentityInUse() implements SignInOutcome {}

  /** The signed-in account already links another identity of this provider. */
  record ProviderAlreadyLinked() implements SignInOutcome {}

  /** The account is suspended by an operator: no session is made. */
  record Suspended(String reason) implements SignInOutcome {}
}
