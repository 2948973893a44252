package io.gpurental.gateway.auth.signin;

import io.gpurental.gateway.auth.AccountRepository;
import io.gpurental.gateway.auth.ConfigRoles;
import io.vertx.core.Future;
import io.vertx.pgclient.PgException;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Decides which account an identity signs in to: its own account when known; when signed in,
 * the current account (linking it); otherwise a new account, unless another account already
 * holds the same verified email (then the person is told how to link instead). A suspended
 * account is not signed in to.
 */
public final class AccountLinker {
  /** The unique key (account_id, provider) of V2__accounts_and_tokens.sql. */
  private static final String ONE_PER_PROVIDER = "identities_account_id_provider_key";
  private final AccountRepository accounts;
  private final ConfigRoles config;

  public AccountLinker(AccountRepository accounts, ConfigRoles config) {
    this.accounts = accounts;
    this.config = config;
  }

  public Future<SignInOutcome> signIn(ExternalIdentity identity, Optional<String> signedInAccount) {
    // a unique violation means a concurrent sign-in of the same identity won the race (or the
    // account already has another identity of this provider): decide again on what is stored now
    return accounts.operatorPins(identity, config.listsGithubLogin(identity)).compose(pins -> {
      Function<ExternalIdentity, Set<String>> roles = id -> config.of(id, pins);
      return decide(identity, signedInAccount, roles).recover(failure -> isUniqueViolation(failure)
          ? decide(identity, signedInAccount, roles).recover(again -> isUniqueViolation(again)
              ? Future.succeededFuture(new SignInOutcome.IdentityInUse()) : Future.failedFuture(again))
          : Future.failedFuture(failure));
    }).compose(this::unlessSuspended);
  }

  private Future<SignInOutcome> unlessSuspended(SignInOutcome outcome) {
    String accountId = outcome instanceof SignInOutcome.SignedIn signedIn ? signedIn.accountId()
        : outcome instanceof SignInOutcome.Linked linked ? linked.accountId() : null;
    if (accountId == null) {
      return Future.succeededFuture(outcome);
    }
    return accounts.access(accountId).map(access -> access.suspension()
        .<SignInOutcome>map(suspension -> new SignInOutcome.Suspended(suspension.reason()))
        .orElse(outcome));
  }

  private static boolean isUniqueViolation(Throwable failure) {
    return failure instanceof PgException pg && "23505".equals(pg.getSqlState());
  }

  private Future<SignInOutcome> decide(ExternalIdentity identity, Optional<String> signedInAccount,
      Function<ExternalIdentity, Set<String>> configRoles) {
    return accounts.findByIdentity(identity.provider(), identity.subject()).compose(owner -> {
      if (owner.isPresent()) {
        if (signedInAccount.isPresent() && !signedInAccount.get().equals(owner.get())) {
          return Future.succeededFuture(new SignInOutcome.IdentityInUse());
        }
        return accounts.touch(owner.get(), identity, configRoles)
            .map(v -> new SignInOutcome.SignedIn(owner.get()));
      }
      if (signedInAccount.isPresent()) {
        return accounts.link(signedInAccount.get(), identity)
            .compose(v -> accounts.touch(signedInAccount.get(), identity, configRoles))
            .<SignInOutcome>map(v -> new SignInOutcome.Linked(signedInAccount.get()))
            .recover(failure -> failure instanceof PgException pg
                && ONE_PER_PROVIDER.equals(pg.getConstraint())
                ? Future.succeededFuture(new SignInOutcome.ProviderAlreadyLinked())
                : Future.failedFuture(failure));
      }
      return newAccountUnlessEmailTaken(identity, configRoles.apply(identity), configRoles);
    });
  }

  private Future<SignInOutcome> newAccountUnlessEmailTaken(ExternalIdentity identity, Set<String> configRoles,
      Function<ExternalIdentity, Set<String>> rolesOf) {
    if (identity.verifiedEmail() == null) {
      return accounts.create(identity, configRoles).map(SignInOutcome.SignedIn::new);
    }
    // the look-up answers most sign-ins; create decides, in the email's turn, for the ones at once
    return accounts.findByVerifiedEmail(identity.verifiedEmail()).compose(existing -> existing.isPresent()
        ? emailInUse(identity, existing.get(), rolesOf)
        : accounts.create(identity, configRoles).<SignInOutcome>map(SignInOutcome.SignedIn::new)
            .recover(failure -> failure instanceof AccountRepository.EmailTaken taken
                ? emailInUse(identity, taken.owner(), rolesOf)
                : Future.failedFuture(failure)));
  }

  /**
   * The verified email has an account: this identity's own when its first sign-in, running at the
   * same time, made it after this one looked for the identity (then this one signs in to it too),
   * else another's.
   */
  private Future<SignInOutcome> emailInUse(ExternalIdentity identity, AccountRepository.EmailOwner owner,
      Function<ExternalIdentity, Set<String>> rolesOf) {
    return accounts.findByIdentity(identity.provider(), identity.subject()).compose(own -> own.isPresent()
        ? decide(identity, Optional.empty(), rolesOf)
        : Future.succeededFuture(new SignInOutcome.EmailInUse(identity.verifiedEmail(), owner.provider())));
  }

}
