package io.gpurental.gateway.agents;

import io.gpurental.gateway.auth.Principal;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.core.shareddata.AsyncMap;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which callers' MCP clients declared URL-mode elicitation ({@code capabilities.elicitation.url},
 * MCP 2025-11-25) at their last {@code initialize}. The server is stateless, so a tool call does
 * not carry the client's capabilities; they are kept per credential (API token or OAuth grant) in
 * the cluster's map, for a day, never in the database: losing them only means a client gets the
 * checkout URL in the tool result, which every client understands.
 */
final class UrlElicitationClients {
  static final Duration TTL = Duration.ofHours(24);
  private static final String MAP = "gateway.mcp.url-elicitation";
  private static final Logger LOG = LoggerFactory.getLogger(UrlElicitationClients.class);
  private final Vertx vertx;

  UrlElicitationClients(Vertx vertx) {
    this.vertx = vertx;
  }

  /** For an {@code initialize} message: what its client declared (last one wins); other messages pass. */
  Future<Void> noteInitialize(Principal caller, JsonObject message) {
    if (!"initialize".equals(message.getValue("method"))) {
      return Future.succeededFuture();
    }
    boolean url = message.getValue("params") instanceof JsonObject params
        && params.getValue("capabilities") instanceof JsonObject capabilities
        && capabilities.getValue("elicitation") instanceof JsonObject elicitation
        && elicitation.getValue("url") instanceof JsonObject;
    return map().compose(map -> map.put(key(caller), url, TTL.toMillis()))
        .recover(failure -> {
          // the initialize still succeeds; this client then gets checkout_url in tool results
          LOG.warn("Could not note the MCP client's elicitation capability", failure);
          return Future.succeededFuture();
        });
  }

  /** Whether the caller's client declared URL-mode elicitation (false when unknown). */
  Future<Boolean> declared(Principal caller) {
    return map().compose(map -> map.get(key(caller)))
        .map(Boolean.TRUE::equals)
        .recover(failure -> {
          LOG.warn("Could not read the MCP client's elicitation capability", failure);
          return Future.succeededFuture(false);
        });
  }

  private static String key(Principal caller) {
    return caller.accountId() + "/" + caller.tokenId().orElse(caller.method().id());
  }

  private Future<AsyncMap<String, Boolean>> map() {
    return vertx.sharedData().getAsyncMap(MAP);
  }
}
