package io.gpurental.gateway.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The response check the test client applies finds answers openapi.yaml does not describe. */
class ResponseContractTest {
  private static final String PROBLEM = "{\"type\":\"urn:problem-type:gpu-rental:not-found\",\"title\":\"Not found\","
      + "\"status\":404,\"detail\":\"No quote q.\",\"instance\":\"/api/v1/quotes/q\",\"request_id\":\"r1\"}";

  @Test
  void aDeclaredAnswerPasses() {
    assertEquals(Optional.empty(), ResponseContract.violation("GET", "/api/v1/version", 200,
        "{\"version\":\"1\",\"schema_version\":\"29\",\"mode\":\"sandbox\"}"));
    assertEquals(Optional.empty(), ResponseContract.violation("GET", "/api/v1/quotes/q", 404, PROBLEM));
  }

  @Test
  void aBodyThatDoesNotMatchItsSchemaIsAViolation() {
    Optional<String> wrong = ResponseContract.violation("GET", "/api/v1/version", 200, "{\"version\":17}");
    assertTrue(wrong.isPresent() && wrong.get().startsWith("getVersion"), String.valueOf(wrong));
    assertTrue(ResponseContract.violation("GET", "/api/v1/quotes/q", 404, "{\"status\":\"no\"}").isPresent());
  }
}
