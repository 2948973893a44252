package io.gpurental.gateway.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.platform.HostileRequests.Built;
import io.gpurental.gateway.platform.HostileRequests.Category;
import io.gpurental.gateway.platform.HostileRequests.Hostile;
import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.Contract;
import io.gpurental.gateway.testing.FakeAgent;
import io.gpurental.gateway.testing.TestGateway;
import io.gpurental.gateway.testing.WebSession;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Fuzzing generated from openapi.yaml, with jqwik: 10,000 hostile requests spread over every
 * operation and eight kinds of hostility ({@link Category}), each sent with the credential its
 * operation accepts (an operator's token, an operator's browser session, a host credential, an
 * enrolment token, or none for public operations). Must hold for every answer: no 5xx; an error is
 * problem+json whose {@code status} is the HTTP status; no stack trace or Java class name in any
 * body; and (through {@link TestGateway#send}) it matches the contract. The seed is fixed, so a
 * failure reproduces; jqwik prints it with the shrunk case. Figures: target/contract-fuzz.txt.
 */
class ContractFuzzTest {
  static final String SEED = "230423";
  private static final Pattern LEAK = Pattern.compile("Exception|\\tat |\\bat (io|java|com|org|jdk)\\."
      + "|\\b(io\\.vertx|io\\.netty|io\\.gpurental|com\\.fasterxml|com\\.stripe|java\\.lang|java\\.util)\\.[A-Za-z.]*");
  private static final Map<Category, AtomicInteger> SENT = new EnumMap<>(Category.class);
  private static final Map<String, AtomicInteger> STATUSES = new TreeMap<>();
  private static TestGateway node;
  private static WebSession operatorBrowser;
  private static Map<String, String> bearers;
  private static HostileRequests requests;
  private static final java.net.http.HttpClient STREAMS = java.net.http.HttpClient.newBuilder()
      .version(java.net.http.HttpClient.Version.HTTP_1_1).build();

  @BeforeContainer
  static void start() {
    Map<String, String> settings = TestGateway.settings();
    // the limits would answer most of 10,000 requests with 429 and hide what lies behind them
    settings.put("GATEWAY_RATE_LIMITS_WRITES_PER_MINUTE", "1000000");
    settings.put("GATEWAY_RATE_LIMITS_TOKEN_CREATIONS_PER_HOUR", "100000");
    settings.put("GATEWAY_RATE_LIMITS_SIGN_INS_PER_MINUTE", "100000");
    node = TestGateway.start(settings);
    ApiClient operator = ApiClient.signIn(node, "operator");
    operatorBrowser = new WebSession();
    operatorBrowser.signIn(node, "github", "operator");
    bearers = Map.of("bearerAuth", operator.token(),
        "hostCredential", FakeAgent.enrolledHost(node, operator, "NVIDIA GeForce RTX 4090", 1).credential(),
        "enrollmentToken", FakeAgent.createHost(operator).getString("enrollment_token"));
    requests = new HostileRequests(Contract.get().operations());
    for (Category category : Category.values()) {
      SENT.put(category, new AtomicInteger());
    }
  }

  @AfterContainer
  static void stop() throws IOException {
    String figures = "contract fuzzing (seed " + SEED + "): sent " + SENT + ", answers by status " + STATUSES + "\n";
    System.out.print(figures);
    Files.createDirectories(Path.of("target"));
    Files.writeString(Path.of("target", "contract-fuzz.txt"), figures);
    if (node != null) {
      node.close();
    }
  }

  @Property(tries = 10_000, seed = SEED, shrinking = ShrinkingMode.BOUNDED)
  void noHostileRequestGetsA5xxOrALeak(@ForAll("hostile") Hostile hostile) {
    Built built = requests.build(hostile);
    SENT.get(hostile.category()).incrementAndGet();
    long started = System.nanoTime();
    HttpResponse<String> response = send(hostile.operation(), built);
    long millis = (System.nanoTime() - started) / 1_000_000;
    if (millis > 2_000) {
      System.out.println("slow answer (" + millis + " ms): " + built.method() + " " + built.path());
    }
    int status = response.statusCode();
    synchronized (STATUSES) {
      STATUSES.computeIfAbsent(Integer.toString(status), s -> new AtomicInteger()).incrementAndGet();
    }
    String what = built.method() + " " + built.path() + " -> " + status + ": " + response.body();
    assertTrue(status < 500, what);
    assertFalse(LEAK.matcher(response.body()).find(), "a stack trace or class name leaks: " + what);
    if (status >= 400 && !"HEAD".equals(built.method())) {
      assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json"),
          "not problem+json: " + what + " " + response.headers().map());
      assertEquals(status, new JsonObject(response.body()).getInteger("status"), "problem status: " + what);
    }
  }

  @Provide
  Arbitrary<Hostile> hostile() {
    List<Contract.Operation> operations = Contract.get().operations();
    Arbitrary<String> odd = Arbitraries.oneOf(
        Arbitraries.strings().withChars('\u0000', '\u202e', '\u200d', '\ufeff', '\ud800', '\udfff', '\u0301', '\uffff',
            'é', '"', '\\', '/', '%', '\n', '\t', 'a', '\u00a0', '\u2028').ofMinLength(1).ofMaxLength(40),
        Arbitraries.of("\u0000", "a\u0000b", "\ud83d\ude00", "\ud800", "\u202egnp.exe", "\ud835\udd73\ud835\udd8a",
            "../../etc/passwd", "%00", "' OR 1=1 --", "${jndi:ldap://127.0.0.1/x}", "<script>alert(1)</script>",
            "x".repeat(10_000), "\u0000".repeat(300), "e\u0301\u0301\u0301\u0301", " "));
    Arbitrary<String> number = Arbitraries.oneOf(
        Arbitraries.of("1e308", "-1e308", "1e400", "-1e400", "9223372036854775808", "-9223372036854775809",
            "18446744073709551616", "2147483648", "-2147483649", "1e-400", "-0", "0.5", "4.9e-324", "1E+999999999"),
        Arbitraries.bigIntegers().between(new java.math.BigInteger("-1" + "0".repeat(40)),
            new java.math.BigInteger("1" + "0".repeat(40))).map(Object::toString));
    // operations and categories evenly (as edge cases, jqwik would favour the first and last)
    return Combinators.combine(Arbitraries.of(operations).withoutEdgeCases(),
        Arbitraries.of(Category.values()).withoutEdgeCases(),
        Arbitraries.integers().between(0, 1000), odd, number,
        Arbitraries.integers().between(65 * 1024 + 1, 1024 * 1024), Arbitraries.integers().between(0, 1000))
        .as(Hostile::new);
  }

  /** Sends with the credential the operation accepts, so the request reaches what lies behind auth. */
  private static HttpResponse<String> send(Contract.Operation operation, Built built) {
    HttpRequest.Builder request = withCredentials(operation, built);
    return operation.streams() ? stream(request) : operation.accepts("sessionCookie") && !bearer(operation)
        ? operatorBrowser.send(request) : node.send(request);
  }

  private static boolean bearer(Contract.Operation operation) {
    return List.of("enrollmentToken", "hostCredential", "bearerAuth").stream().anyMatch(operation::accepts);
  }

  private static HttpRequest.Builder withCredentials(Contract.Operation operation, Built built) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(node.url("/api/v1" + built.path())))
        .method(built.method(), built.body() == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(built.body()));
    if (built.contentType() != null) {
      request.header("Content-Type", built.contentType());
    }
    if ("POST".equals(built.method())) {
      request.header("Idempotency-Key", UUID.randomUUID().toString());
    }
    for (String scheme : List.of("enrollmentToken", "hostCredential", "bearerAuth")) {
      if (operation.accepts(scheme)) {
        return request.header("Authorization", "Bearer " + bearers.get(scheme));
      }
    }
    if (operation.accepts("sessionCookie")) {
      URI uri = URI.create(node.url("/"));
      return request.header("Origin", uri.getScheme() + "://" + uri.getAuthority())
          .header("X-CSRF-Token", operatorBrowser.csrfToken());
    }
    return request;
  }

  /**
   * An event stream's 200 does not end: its headers are the answer (the stream is closed at once);
   * any other answer is read whole. (The contract check of {@link TestGateway#send} needs the whole body.)
   */
  private static HttpResponse<String> stream(HttpRequest.Builder request) {
    try {
      HttpResponse<java.io.InputStream> response = STREAMS.send(request.timeout(java.time.Duration.ofSeconds(30))
          .build(), HttpResponse.BodyHandlers.ofInputStream());
      String body;
      try (java.io.InputStream in = response.body()) {
        boolean open = response.statusCode() == 200
            && response.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream");
        body = open ? "" : new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      }
      return new Answer(response, body);
    } catch (IOException | InterruptedException e) {
      throw new IllegalStateException("request failed: " + e.getMessage(), e);
    }
  }

  /** A streamed answer with the part of its body that was read. */
  private record Answer(HttpResponse<java.io.InputStream> response, String body) implements HttpResponse<String> {
    @Override
    public int statusCode() {
      return response.statusCode();
    }

    @Override
    public HttpRequest request() {
      return response.request();
    }

    @Override
    public java.util.Optional<HttpResponse<String>> previousResponse() {
      return java.util.Optional.empty();
    }

    @Override
    public java.net.http.HttpHeaders headers() {
      return response.headers();
    }

    @Override
    public java.util.Optional<javax.net.ssl.SSLSession> sslSession() {
      return response.sslSession();
    }

    @Override
    public URI uri() {
      return response.uri();
    }

    @Override
    public java.net.http.HttpClient.Version version() {
      return response.version();
    }
  }
}
