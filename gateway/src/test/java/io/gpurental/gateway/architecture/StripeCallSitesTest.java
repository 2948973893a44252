package io.gpurental.gateway.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * stripe-java's Gson work outside its API calls (a webhook's check and parse, an event's data) is
 * done in one place each, where StripeThreads notes its thread and payments.StripeThreadsTest
 * proves it is a worker: a new call site elsewhere would escape that proof, so it fails here.
 */
class StripeCallSitesTest {
  private static final Map<String, Set<String>> ALLOWED = Map.of(
      "Webhook.constructEvent(", Set.of("payments/StripeWebhooks.java"),
      "getDataObjectDeserializer(", Set.of("payments/StripeEvent.java"),
      "ApiResource.GSON", Set.of(),
      "StripeClient.builder()", Set.of("payments/StripeGateway.java"));

  @Test
  void stripeJavasParsingHasOneCallSiteEach() {
    Map<String, Set<String>> found = new TreeMap<>();
    for (Path file : SourceTree.javaFiles()) {
      String source = SourceTree.read(file);
      String name = SourceTree.ROOT.relativize(file).toString();
      ALLOWED.keySet().forEach(call -> {
        if (source.contains(call)) {
          found.computeIfAbsent(call, c -> new TreeSet<>()).add(name);
        }
      });
    }
    ALLOWED.forEach((call, files) -> assertEquals(new TreeSet<>(files), found.getOrDefault(call, Set.of()),
        call + " is used outside the places that run it on a worker thread"));
  }
}
