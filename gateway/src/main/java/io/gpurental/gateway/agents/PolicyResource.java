package io.gpurental.gateway.agents;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpStatelessServerFeatures;
import io.modelcontextprotocol.spec.McpSchema;
import io.vertx.core.Context;
import io.vertx.core.Future;
import java.util.List;
import java.util.function.Supplier;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * A resource that tells an agent, in plain words, what happens to its money: refunds on
 * cancellation (from the current terms), downtime credits and the ready guarantee. The words are
 * the ones every quote carries, so the resource never disagrees with a quote.
 */
final class PolicyResource {
  static final String URI = "gpu-rental://policies/refunds-credits-ready-guarantee";
  private final Supplier<Future<String>> cancellationPolicy;
  private final String readyGuarantee;

  PolicyResource(Supplier<Future<String>> cancellationPolicy, String readyGuarantee) {
    this.cancellationPolicy = cancellationPolicy;
    this.readyGuarantee = readyGuarantee;
  }

  McpStatelessServerFeatures.AsyncResourceSpecification specification() {
    McpSchema.Resource resource = McpSchema.Resource.builder().uri(URI).name("policies")
        .title("Refunds, credits and the ready guarantee")
        .description("What you get back when you cancel, when a host fails or an instance starts late.")
        .mimeType("text/markdown").build();
    return new McpStatelessServerFeatures.AsyncResourceSpecification(resource, this::read);
  }

  private Mono<McpSchema.ReadResourceResult> read(McpTransportContext transport, McpSchema.ReadResourceRequest request) {
    Context context = (Context) transport.get(ToolCalls.VERTX_CONTEXT);
    return Mono.<String>create(sink -> context.runOnContext(v -> cancellationPolicy.get()
            .onSuccess(sink::success).onFailure(sink::error)))
        .publishOn(Schedulers.boundedElastic())
        .map(cancellation -> new McpSchema.ReadResourceResult(List.of(
            new McpSchema.TextResourceContents(URI, "text/markdown", text(cancellation)))));
  }

  private String text(String cancellation) {
    return """
        # Refunds, credits and the ready guarantee

        Money is in minor units of the account's currency; every refund goes back to the card that paid.

        ## Cancelling
        %s
        A reservation still waiting for payment is released at no cost. Cancel with cancel_reservation;
        its answer shows the refund.

        ## Ready guarantee and downtime credits
        %s
        Credits and refunds are automatic: nobody needs to ask. get_reservation lists them under
        credits and payment.refunds.

        ## Holds
        A reservation paid by checkout holds its GPUs until hold_expires_at; unpaid by then, it is
        released and nothing is charged.
        """.formatted(cancellation, readyGuarantee);
  }
}
