package io.gpurental.gateway.auth;

import io.gpurental.gateway.auth.tokens.TokenRepository;
import io.vertx.core.Future;
import io.vertx.ext.web.RoutingContext;
import java.util.Set;

/**
 * Whether what a long-lived request authenticated with still holds: the token unrevoked and
 * unexpired, or the session still signed in; the account not suspended, and still with every role it
 * had then.
 * For streams that outlive the request check done by {@link Authenticator}.
 */
public final class Credentials {
  private final Sessions sessions;
  private final TokenRepository tokens;
  private final AccountRepository accounts;

  Credentials(Sessions sessions, TokenRepository tokens, AccountRepository accounts) {
    this.sessions = sessions;
    this.tokens = tokens;
    this.accounts = accounts;
  }

  /** What the caller of this request proved: a token, or a session by its id. */
  public record Credential(Principal principal, String sessionId) {}

  public Credential of(RoutingContext ctx) {
    Principal principal = Principal.required(ctx);
    return new Credential(principal, principal.method() == Principal.Method.SESSION ? ctx.session().id() : null);
  }

  public Future<Boolean> stillValid(Credential credential) {
    Principal principal = credential.principal();
    Future<Boolean> live = principal.tokenId().isPresent() ? tokens.isLive(principal.tokenId().get())
        : sessions.signedIn(credential.sessionId(), principal.accountId());
    return live.compose(ok -> !ok ? Future.succeededFuture(false)
        : accounts.access(principal.accountId())
            .map(access -> access.suspension().isEmpty() && hasAll(access.roles(), principal.roles())));
  }

  private static boolean hasAll(Set<String> granted, Set<String> had) {
    return Roles.withRenter(granted).containsAll(had);
  }
}
