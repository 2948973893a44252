package io.gpurental.gateway.agents;

import io.gpurental.gateway.auth.Principal;
import io.gpurental.gateway.platform.errors.ApiException;
import io.gpurental.gateway.platform.errors.Forbidden;
import io.gpurental.gateway.platform.errors.Problem;
import io.gpurental.gateway.platform.errors.Problems;
import io.gpurental.gateway.platform.http.ProblemRecorder;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Runs a tool call on the gateway's services: on the request's Vert.x context (the services are
 * Vert.x code), with the SDK's side resumed on Reactor's bounded-elastic threads, never on an
 * event loop. A service's failure becomes a tool result with {@code isError} and the problem the
 * REST API would have answered (type, title, status, detail), never a stack trace.
 */
final class ToolCalls {
  /** Transport-context keys the endpoint fills for each HTTP request. */
  static final String PRINCIPAL = "gateway.principal";
  static final String VERTX_CONTEXT = "gateway.vertx-context";
  static final String REQUEST_ID = "gateway.request-id";
  private static final Logger LOG = LoggerFactory.getLogger(ToolCalls.class);
  private static final TypeRef<Map<String, Object>> MAP = new TypeRef<>() {};
  private final McpJsonMapper mapper;
  private final Function<Principal, Future<Boolean>> urlElicitation;

  /** What a tool gets: the caller, its arguments, and where to leave an idempotency recorder. */
  record Call(String tool, Principal caller, JsonObject args, AtomicReference<ProblemRecorder> recorder,
      Supplier<Future<Boolean>> urlElicitation) {
    /** For services that keep failed answers under an idempotency key. */
    Consumer<ProblemRecorder> onProblem() {
      return recorder::set;
    }
  }

  /** A tool's work: its structured result. */
  @FunctionalInterface
  interface Work {
    Future<JsonObject> run(Call call);
  }

  /** {@code urlElicitation}: whether a caller's client declared URL-mode elicitation at its initialize. */
  ToolCalls(McpJsonMapper mapper, Function<Principal, Future<Boolean>> urlElicitation) {
    this.mapper = mapper;
    this.urlElicitation = urlElicitation;
  }

  BiFunction<McpTransportContext, McpSchema.CallToolRequest, Mono<CallToolResult>> handler(
      ToolDeclarations.Declared declared, Work work) {
    return (transport, request) -> {
      Principal caller = (Principal) transport.get(PRINCIPAL);
      Context context = (Context) transport.get(VERTX_CONTEXT);
      String requestId = (String) transport.get(REQUEST_ID);
      Call call = new Call(declared.tool().name(), caller, arguments(request), new AtomicReference<>(),
          () -> urlElicitation.apply(caller));
      return Mono.<CallToolResult>create(sink -> context.runOnContext(v -> Future.succeededFuture()
              .compose(x -> {
                declared.scope().filter(needed -> caller.scopes().stream().noneMatch(s -> s.grants(needed.id())))
                    .ifPresent(needed -> {
                      throw new Forbidden("This token lacks the scope " + needed.id() + " that "
                          + call.tool() + " needs.", new JsonObject().put("error", "insufficient_scope")
                          .put("scope", needed.id()));
                    });
                return work.run(call);
              })
              .map(this::success)
              // an McpError (URL elicitation required) is a JSON-RPC error, not a tool result
              .recover(failure -> failure instanceof McpError ? Future.failedFuture(failure)
                  : failed(call, failure, requestId))
              .onComplete(done -> {
                if (done.succeeded()) {
                  sink.success(done.result());
                } else {
                  sink.error(done.cause());
                }
              })))
          .publishOn(Schedulers.boundedElastic());
    };
  }

  private JsonObject arguments(McpSchema.CallToolRequest request) {
    try {
      return request.arguments() == null ? new JsonObject()
          : new JsonObject(mapper.writeValueAsString(request.arguments()));
    } catch (IOException e) {
      throw new IllegalArgumentException("arguments are not JSON", e);
    }
  }

  private CallToolResult success(JsonObject structured) {
    String text = structured.encode();
    try {
      return CallToolResult.builder().structuredContent(mapper.readValue(text, MAP)).addTextContent(text).build();
    } catch (IOException e) {
      throw new IllegalStateException("a tool's result is not JSON", e);
    }
  }

  /**
   * The problem as a tool error; a client error (4xx) is first kept under the call's idempotency
   * key, where the service asked for it, so a retry is answered the same.
   */
  private Future<CallToolResult> failed(Call call, Throwable failure, String requestId) {
    Problem problem = Problems.of(failure, 500, HttpMethod.POST, "/mcp", 0);
    JsonObject body = problem.toJson("/mcp#" + call.tool(), requestId);
    if (!(failure instanceof ApiException) || problem.status() >= 500) {
      LOG.error("MCP tool {} failed (request {})", call.tool(), requestId, failure);
    }
    ProblemRecorder recorder = call.recorder().get();
    Future<Void> kept = recorder != null && problem.status() < 500
        ? recorder.record(problem.status(), body.encode()) : Future.succeededFuture();
    return kept.otherwiseEmpty().map(v -> errorResult(body));
  }

  /** A tool error carrying a problem detail (also what a replayed failed answer becomes). */
  CallToolResult errorResult(JsonObject problem) {
    return CallToolResult.builder().isError(true)
        .addTextContent(problem.getString("detail", "The call failed.") + "\n" + problem.encode()).build();
  }
}
