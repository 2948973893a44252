package io.gpurental.gateway.agents;

import io.gpurental.gateway.auth.Principal;
import io.gpurental.gateway.auth.Scope;
import io.gpurental.gateway.platform.errors.ApiException;
import io.gpurental.gateway.platform.errors.TooManyRequests;
import io.gpurental.gateway.platform.http.RequestIds;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpStatelessServerHandler;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.ErrorCodes;
import io.modelcontextprotocol.spec.McpStatelessServerTransport;
import io.vertx.core.Future;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The MCP SDK's stateless server transport over a Vert.x route (the SDK ships servlet transports
 * only; this follows its {@code HttpServletStatelessServerTransport}). {@code POST /mcp} carries
 * one JSON-RPC message; a request is answered with JSON (or one SSE event when the client accepts
 * only {@code text/event-stream}), a notification with 202. There are no sessions: {@code GET}
 * and {@code DELETE} are 405. The SDK runs on Reactor's bounded-elastic threads and is
 * subscribed to, never blocked on; the answer is written back on the request's event loop.
 */
final class McpEndpoint implements McpStatelessServerTransport {
  static final String PATH = "/mcp";
  /** Tool arguments are small; an SSH public key is the largest (16 KiB in the schema). */
  static final int MAX_BODY_BYTES = 64 * 1024;
  private static final Logger LOG = LoggerFactory.getLogger(McpEndpoint.class);
  private static final String JSON = "application/json";
  private static final String SSE = "text/event-stream";
  private final McpJsonMapper mapper;
  private final McpAccess access;
  private final UrlElicitationClients urlElicitation;
  private volatile McpStatelessServerHandler handler;
  private volatile boolean closing;

  McpEndpoint(McpJsonMapper mapper, McpAccess access, UrlElicitationClients urlElicitation) {
    this.mapper = mapper;
    this.access = access;
    this.urlElicitation = urlElicitation;
  }

  @Override
  public void setMcpHandler(McpStatelessServerHandler handler) {
    this.handler = handler;
  }

  @Override
  public Mono<Void> closeGracefully() {
    return Mono.fromRunnable(() -> closing = true);
  }

  void mount(Router router) {
    router.post(PATH).handler(this::post);
    router.route(PATH).handler(ctx -> ctx.response().putHeader("Allow", "POST")
        .putHeader("Content-Type", JSON).setStatusCode(405)
        .end(error(null, ErrorCodes.INVALID_REQUEST, "This MCP server is stateless: POST each JSON-RPC message.")));
  }

  private void post(RoutingContext ctx) {
    String accept = ctx.request().getHeader("Accept");
    String version = ctx.request().getHeader("MCP-Protocol-Version");
    if (closing) {
      reply(ctx, 503, error(null, ErrorCodes.INTERNAL_ERROR, "The server is shutting down; retry on another node."));
    } else if (!access.originAllowed(ctx.request().getHeader("Origin"))) {
      reply(ctx, 403, error(null, ErrorCodes.INVALID_REQUEST, "Requests from this Origin are refused."));
    } else if (version != null && !protocolVersions().contains(version)) {
      reply(ctx, 400, error(null, ErrorCodes.INVALID_REQUEST, "Unsupported MCP-Protocol-Version " + version
          + "; this server speaks " + String.join(", ", protocolVersions()) + "."));
    } else if (accept != null && !accept.contains(JSON) && !accept.contains(SSE) && !accept.contains("*/*")) {
      reply(ctx, 406, error(null, ErrorCodes.INVALID_REQUEST, "Accept application/json or text/event-stream."));
    } else if (ctx.body().length() > MAX_BODY_BYTES) {
      reply(ctx, 413, error(null, ErrorCodes.INVALID_REQUEST, "A message is at most " + MAX_BODY_BYTES + " bytes."));
    } else {
      access.authenticate(ctx.request().getHeader("Authorization"))
          .onSuccess(caller -> dispatch(ctx, caller))
          .onFailure(failure -> refuse(ctx, failure));
    }
  }

  /** 401 with the challenge naming the resource metadata; a suspended account's 403 and a 429 as they are. */
  private void refuse(RoutingContext ctx, Throwable failure) {
    int status = failure instanceof ApiException api ? api.status() : 500;
    if (status >= 500) {
      LOG.error("Authenticating an MCP call failed", failure);
    } else if (status == 401) {
      ctx.response().putHeader("WWW-Authenticate", access.challenge());
    } else if (failure instanceof TooManyRequests limited) {
      ctx.response().putHeader("Retry-After", String.valueOf(limited.extensions().getLong(TooManyRequests.RETRY_AFTER)));
    }
    String detail = status >= 500 ? "The server could not check the token." : failure.getMessage();
    reply(ctx, status, error(null, ErrorCodes.INVALID_REQUEST, detail));
  }

  private void dispatch(RoutingContext ctx, Principal caller) {
    String text = ctx.body().asString();
    Object message;
    try {
      message = Json.decodeValue(text == null ? "" : text);
    } catch (DecodeException e) {
      reply(ctx, 400, error(null, ErrorCodes.PARSE_ERROR, "The body is not JSON."));
      return;
    }
    if (!(message instanceof JsonObject object)) {
      reply(ctx, 400, error(null, ErrorCodes.INVALID_REQUEST, "Send one JSON-RPC message (no batches)."));
      return;
    }
    Optional<Scope> missing = access.missingScope(caller, object);
    if (missing.isPresent()) {
      ctx.response().putHeader("WWW-Authenticate", access.insufficientScope(missing.get()));
      reply(ctx, 403, error(object.getValue("id"), ErrorCodes.INVALID_REQUEST, "insufficient_scope: this token lacks "
          + missing.get().id() + "."));
      return;
    }
    access.limitWrites(caller, object)
        // noted before the initialize is answered, so the client's next call finds it
        .compose(v -> urlElicitation.noteInitialize(caller, object))
        .onSuccess(v -> run(ctx, caller, object, text))
        .onFailure(failure -> refuse(ctx, failure));
  }

  private void run(RoutingContext ctx, Principal caller, JsonObject object, String text) {
    McpTransportContext transport = McpTransportContext.create(Map.of(ToolCalls.PRINCIPAL, caller,
        ToolCalls.VERTX_CONTEXT, ctx.vertx().getOrCreateContext(), ToolCalls.REQUEST_ID, RequestIds.of(ctx)));
    Mono<Optional<String>> answer = Mono.fromCallable(() -> McpSchema.deserializeJsonRpcMessage(mapper, text))
        .flatMap(parsed -> handle(transport, parsed))
        .contextWrite(context -> context.put(McpTransportContext.KEY, transport))
        .subscribeOn(Schedulers.boundedElastic());
    Future.fromCompletionStage(answer.toFuture(), ctx.vertx().getOrCreateContext())
        .onSuccess(body -> respond(ctx, body))
        .onFailure(failure -> {
          if (failure instanceof IllegalArgumentException || failure instanceof java.io.IOException) {
            reply(ctx, 400, error(object.getValue("id"), ErrorCodes.INVALID_REQUEST, "Not a JSON-RPC message."));
          } else {
            LOG.error("MCP message failed (request {})", RequestIds.of(ctx), failure);
            reply(ctx, 500, error(object.getValue("id"), ErrorCodes.INTERNAL_ERROR, "The server failed; retry."));
          }
        });
  }

  /** The response's JSON for a request; empty for a notification or a client's response. */
  private Mono<Optional<String>> handle(McpTransportContext transport, McpSchema.JSONRPCMessage message) {
    if (message instanceof McpSchema.JSONRPCRequest request) {
      return handler.handleRequest(transport, request).map(response -> Optional.of(encode(response)));
    }
    if (message instanceof McpSchema.JSONRPCNotification notification) {
      return handler.handleNotification(transport, notification).then(Mono.just(Optional.empty()));
    }
    return Mono.just(Optional.empty());
  }

  private void respond(RoutingContext ctx, Optional<String> body) {
    if (body.isEmpty()) {
      ctx.response().setStatusCode(202).end();
      return;
    }
    String accept = ctx.request().getHeader("Accept");
    boolean sseOnly = accept != null && accept.contains(SSE) && !accept.contains(JSON) && !accept.contains("*/*");
    if (sseOnly) {
      ctx.response().putHeader("Content-Type", SSE).putHeader("Cache-Control", "no-store")
          .end("event: message\ndata: " + body.get() + "\n\n");
    } else {
      reply(ctx, 200, body.get());
    }
  }

  private String encode(Object value) {
    try {
      return mapper.writeValueAsString(value);
    } catch (java.io.IOException e) {
      throw new IllegalStateException("an MCP message could not be written", e);
    }
  }

  /** A JSON-RPC error; {@code id} is null when the message's id is unknown (the SDK's records refuse that). */
  private static String error(Object id, int code, String message) {
    return new JsonObject().put("jsonrpc", McpSchema.JSONRPC_VERSION).put("id", id)
        .put("error", new JsonObject().put("code", code).put("message", message)).encode();
  }

  private static void reply(RoutingContext ctx, int status, String json) {
    ctx.response().setStatusCode(status).putHeader("Content-Type", JSON).putHeader("Cache-Control", "no-store")
        .end(json);
  }
}
