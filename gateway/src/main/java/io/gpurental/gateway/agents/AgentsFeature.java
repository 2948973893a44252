package io.gpurental.gateway.agents;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpurental.gateway.auth.Principal;
import io.gpurental.gateway.auth.tokens.TokenBudgets;
import io.gpurental.gateway.catalog.CatalogQueries;
import io.gpurental.gateway.platform.Feature;
import io.gpurental.gateway.pricing.QuotesApi;
import io.gpurental.gateway.reservations.Bookings;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpStatelessAsyncServer;
import io.modelcontextprotocol.server.McpStatelessServerFeatures;
import io.modelcontextprotocol.spec.McpSchema;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The MCP server for AI agents at {@code /mcp}: the official SDK's stateless server behind
 * {@link McpEndpoint}, its tools bound to the services the REST API uses (the catalog's queries,
 * quotes, the reservations feature's {@link Bookings}), never a second implementation.
 */
public final class AgentsFeature implements Feature {
  /** Saved-card charges go to Stripe: give a call longer than the SDK's default 10 s. */
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);
  private final McpEndpoint endpoint;
  private final McpAccess access;
  private final McpStatelessAsyncServer server;

  /** The tool declarations, read once at boot ({@link #declarations}). */
  public record Declarations(Map<String, ToolDeclarations.Declared> tools, McpJsonMapper mapper) {}

  /**
   * What the tools run on: the other features' services ({@code images}: what {@code GET /images}
   * answers, the fleet's image templates).
   */
  public record Services(CatalogQueries catalog, QuotesApi quotes, Bookings bookings,
      Function<String, Future<Principal>> apiTokens, Function<Principal, Future<Void>> writeLimit, TokenBudgets budgets, Supplier<Future<String>> cancellationPolicy,
      String readyGuarantee, Supplier<Future<JsonObject>> images) {}

  /** Reads {@code mcp/tools.json} without blocking. */
  public static Future<Declarations> declarations(Vertx vertx) {
    McpJsonMapper mapper = new JacksonMcpJsonMapper(new ObjectMapper());
    return ToolDeclarations.load(vertx, mapper).map(tools -> new Declarations(tools, mapper));
  }

  public AgentsFeature(Vertx vertx, Declarations declarations, Services services, String publicBase, int maxHours,
      String version) {
    McpJsonMapper mapper = declarations.mapper();
    this.access = new McpAccess(services.apiTokens(), services.writeLimit(), publicBase, declarations.tools());
    UrlElicitationClients urlElicitation = new UrlElicitationClients(vertx);
    this.endpoint = new McpEndpoint(mapper, access, urlElicitation);
    ToolCalls calls = new ToolCalls(mapper, urlElicitation::declared);
    Map<String, ToolCalls.Work> work = new HashMap<>(new CatalogTools(services.catalog(), services.quotes(), maxHours)
        .work());
    work.putAll(new ReservationTools(services.bookings(), publicBase).work());
    work.put("list_images", call -> services.images().get());
    work.put("get_budget", call -> {
      String tokenId = call.caller().tokenId().orElseThrow();
      return services.budgets().report(call.caller().accountId(), tokenId)
          .map(report -> new JsonObject().put("token_id", tokenId).put("budget", report.orElse(null)));
    });
    List<McpStatelessServerFeatures.AsyncToolSpecification> tools = new ArrayList<>();
    declarations.tools().forEach((name, declared) -> {
      ToolCalls.Work tool = work.get(name);
      if (tool == null) {
        throw new IllegalStateException(ToolDeclarations.RESOURCE + " declares " + name + ", which nothing runs");
      }
      tools.add(new McpStatelessServerFeatures.AsyncToolSpecification(declared.tool(), calls.handler(declared, tool)));
    });
    this.server = McpServer.async(endpoint)
        .serverInfo(McpSchema.Implementation.builder("gpu-rental-gateway", version).title("GPU Rental Gateway").build())
        .instructions("Rent GPUs: search_offers, get_quote, then create_reservation with an SSH public key. "
            + "Money is integer minor units. Read the policies resource before spending.")
        .capabilities(McpSchema.ServerCapabilities.builder().tools(false).resources(false, false).build())
        .jsonMapper(mapper)
        .jsonSchemaValidator(new DefaultJsonSchemaValidator(new ObjectMapper()))
        .requestTimeout(REQUEST_TIMEOUT)
        .tools(tools)
        .resources(new PolicyResource(services.cancellationPolicy(), services.readyGuarantee()).specification())
        .build();
  }

  @Override
  public void mount(Router router) {
    access.mount(router);
    endpoint.mount(router);
  }

  @Override
  public Future<Void> close() {
    return Future.fromCompletionStage(server.closeGracefully().toFuture());
  }
}
