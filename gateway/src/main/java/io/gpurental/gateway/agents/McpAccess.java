package io.gpurental.gateway.agents;

import io.gpurental.gateway.auth.Principal;
import io.gpurental.gateway.auth.Scope;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Who may call {@code /mcp}: browsers only from the gateway's own origin (a page elsewhere must not
 * drive a local agent's token), callers only with an API token or an OAuth access token issued
 * for this resource (401 pointing at the protected
 * resource metadata of RFC 9728 otherwise), and a tool only with the scope it declares (403
 * {@code insufficient_scope}, said before the SDK sees the call, so clients can step up).
 */
final class McpAccess {
  static final String METADATA_PATH = "/.well-known/oauth-protected-resource";
  static final String SCOPES = "catalog:read reservations:read reservations:write";
  private final Function<String, Future<Principal>> tokens;
  private final String publicBase;
  private final String publicOrigin;
  private final Map<String, ToolDeclarations.Declared> tools;
  private final Function<Principal, Future<Void>> writeLimit;

  McpAccess(Function<String, Future<Principal>> tokens, Function<Principal, Future<Void>> writeLimit, String publicBase,
      Map<String, ToolDeclarations.Declared> tools) {
    this.tokens = tokens;
    this.writeLimit = writeLimit;
    this.publicBase = publicBase;
    this.publicOrigin = origin(publicBase);
    this.tools = tools;
  }

  private static String origin(String url) {
    URI uri = URI.create(url);
    return uri.getScheme() + "://" + uri.getRawAuthority();
  }

  /** No Origin (not a browser) or the gateway's own. */
  boolean originAllowed(String origin) {
    return origin == null || publicOrigin.equalsIgnoreCase(origin);
  }

  Future<Principal> authenticate(String authorization) {
    return tokens.apply(authorization);
  }

  /** The {@code WWW-Authenticate} challenge of a 401 (RFC 6750, RFC 9728). */
  String challenge() {
    return "Bearer resource_metadata=\"" + metadataUrl() + "\", scope=\"" + SCOPES + "\"";
  }

  /** The challenge of a 403 for a call that needs {@code scope}. */
  String insufficientScope(Scope scope) {
    return "Bearer error=\"insufficient_scope\", scope=\"" + scope.id() + "\", resource_metadata=\"" + metadataUrl()
        + "\", error_description=\"this tool needs the scope " + scope.id() + "\"";
  }

  String metadataUrl() {
    return publicBase + METADATA_PATH + "/mcp";
  }

  /** The scope a JSON-RPC message's tool call needs and the caller lacks, if any. */
  Optional<Scope> missingScope(Principal caller, JsonObject message) {
    if (!"tools/call".equals(message.getValue("method")) || !(message.getValue("params") instanceof JsonObject params)
        || !(params.getValue("name") instanceof String name) || !tools.containsKey(name)) {
      return Optional.empty();
    }
    return tools.get(name).scope().filter(needed -> caller.scopes().stream().noneMatch(s -> s.grants(needed.id())));
  }

  /**
   * A call of a tool that is not read-only counts against the token's write limit, the same
   * bucket as its REST writes (429 beyond it).
   */
  Future<Void> limitWrites(Principal caller, JsonObject message) {
    boolean writes = "tools/call".equals(message.getValue("method"))
        && message.getValue("params") instanceof JsonObject params && params.getValue("name") instanceof String name
        && tools.containsKey(name) && !Boolean.TRUE.equals(tools.get(name).tool().annotations().readOnlyHint());
    return writes ? writeLimit.apply(caller) : Future.succeededFuture();
  }

  /** Protected resource metadata (RFC 9728), at the root and at the path of {@code /mcp}. */
  void mount(Router router) {
    JsonObject metadata = new JsonObject()
        .put("resource", publicBase + "/mcp")
        // the gateway itself issues the OAuth access tokens of this resource (auth/oauth)
        .put("authorization_servers", new JsonArray().add(publicBase))
        .put("scopes_supported", new JsonArray(java.util.List.of(SCOPES.split(" "))))
        .put("bearer_methods_supported", new JsonArray().add("header"))
        .put("resource_name", "GPU Rental Gateway MCP server");
    String body = metadata.encodePrettily();
    for (String path : new String[] {METADATA_PATH, METADATA_PATH + "/mcp"}) {
      router.get(path).handler(ctx -> ctx.response().putHeader("Content-Type", "application/json")
          .putHeader("Cache-Control", "max-age=3600").end(body));
    }
  }
}
