package io.gpurental.gateway.platform.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.platform.ApiContract;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.openapi.contract.OpenAPIContract;
import io.vertx.openapi.contract.Operation;
import io.vertx.openapi.contract.Parameter;
import io.vertx.openapi.contract.Path;
import io.vertx.openapi.validation.RequestParameter;
import io.vertx.openapi.validation.RequestValidator;
import io.vertx.openapi.validation.ValidatedRequest;
import io.vertx.openapi.validation.impl.RequestParameterImpl;
import io.vertx.openapi.validation.impl.ValidatableRequestImpl;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The gateway's request validator answers every request as vertx-openapi's own does: for every
 * operation of the contract, parameters and bodies valid and not, the same outcome, the same
 * message, the same validated values.
 */
class ContractValidatorTest {
  private static final List<String> VALUES = List.of("1", "0", "-1", "abc", "", "2026-12-03T10:00:00Z",
      "99999999999999999999", "H100 SXM", "true", "price", "1.5", "off_0000000001");
  private static final List<String> BODIES = List.of("{}", "{\"gpu_count\":1}", "{\"offer_id\":\"x\",\"gpu_count\":\"2\"}",
      "[]", "not json", "{\"name\":\"n\",\"extra\":true}");
  private static Vertx vertx;
  private static OpenAPIContract contract;
  private static RequestValidator upstream;
  private static RequestValidator ours;

  @BeforeAll
  static void contract() {
    vertx = Vertx.vertx();
    contract = ApiContract.load(vertx, URI.create("http://127.0.0.1:8080")).await().contract();
    upstream = RequestValidator.create(vertx, contract);
    ours = new ContractValidator(vertx, contract);
  }

  @AfterAll
  static void close() {
    vertx.close().await();
  }

  @Test
  void everyOperationIsAnsweredAsVertxOpenapiAnswersIt() {
    int compared = 0;
    int refused = 0;
    for (Path path : contract.getPaths()) {
      for (Operation operation : path.getOperations()) {
        List<String> bodies = operation.getRequestBody() == null ? java.util.Collections.singletonList(null) : BODIES;
        for (int v = 0; v < VALUES.size(); v++) {
          for (String body : bodies) {
            ValidatableRequestImpl request = request(operation, v, body);
            String expected = outcome(upstream.validate(request, operation.getOperationId()));
            assertEquals(expected, outcome(ours.validate(request, operation.getOperationId())),
                operation.getOperationId() + " with value " + VALUES.get(v) + " and body " + body);
            compared++;
            refused += expected.startsWith("refused") ? 1 : 0;
          }
        }
      }
    }
    assertTrue(compared > 1_000 && refused > 100 && compared - refused > 100,
        compared + " requests compared, " + refused + " refused");
  }

  /** Each parameter gets a value from the list, shifted by its position, so operations see mixes. */
  private static ValidatableRequestImpl request(Operation operation, int shift, String body) {
    Map<String, Map<String, RequestParameter>> in = new HashMap<>();
    for (String where : List.of("COOKIE", "HEADER", "PATH", "QUERY")) {
      in.put(where, new HashMap<>());
    }
    List<Parameter> parameters = operation.getParameters();
    for (int i = 0; i < parameters.size(); i++) {
      Parameter parameter = parameters.get(i);
      int pick = (shift + i) % (VALUES.size() + 1);
      if (pick < VALUES.size()) { // one slot in the cycle leaves the parameter out
        in.get(parameter.getIn().name()).put(parameter.getName(), new RequestParameterImpl(VALUES.get(pick)));
      }
    }
    return new ValidatableRequestImpl(in.get("COOKIE"), in.get("HEADER"), in.get("PATH"), in.get("QUERY"),
        body == null ? null : new RequestParameterImpl(Buffer.buffer(body)), body == null ? null : "application/json");
  }

  private static String outcome(Future<ValidatedRequest> validation) {
    return validation.transform(done -> Future.succeededFuture(done.succeeded()
        ? "valid " + values(done.result()) : "refused " + done.cause().getClass().getSimpleName() + ": "
            + done.cause().getMessage())).await();
  }

  private static String values(ValidatedRequest request) {
    return List.of(request.getCookies(), request.getHeaders(), request.getPathParameters(), request.getQuery())
        .stream().map(ContractValidatorTest::plain).toList() + " body " + request.getBody().get();
  }

  private static Map<String, Object> plain(Map<String, RequestParameter> parameters) {
    Map<String, Object> plain = new java.util.TreeMap<>();
    parameters.forEach((name, value) -> plain.put(name, value.get()));
    return plain;
  }
}
