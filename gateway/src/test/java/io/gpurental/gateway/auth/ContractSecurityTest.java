package io.gpurental.gateway.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Every operation in openapi.yaml says who may call it, in terms the gateway enforces. */
class ContractSecurityTest {
  private static final Set<String> SCHEMES = Set.of(AccessPolicy.SESSION_SCHEME, AccessPolicy.BEARER_SCHEME,
      AccessPolicy.HOST_SCHEME, AccessPolicy.ENROLMENT_SCHEME);
  private static final Set<String> ROLES = Set.of(Roles.RENTER, Roles.OPERATOR);

  @Test
  void everyOperationDeclaresItsSecurity() throws Exception {
    JsonObject document = contract();
    List<String> problems = new ArrayList<>();
    JsonObject paths = document.getJsonObject("paths");
    for (String path : paths.fieldNames()) {
      JsonObject item = paths.getJsonObject(path);
      for (String method : item.fieldNames()) {
        JsonObject operation = item.getJsonObject(method);
        String name = method.toUpperCase() + " " + path;
        JsonArray security = operation.getJsonArray("security");
        if (security == null || security.isEmpty()) {
          problems.add(name + " declares no security");
          continue;
        }
        for (Object alternative : security) {
          for (Map.Entry<String, Object> requirement : (JsonObject) alternative) {
            if (!SCHEMES.contains(requirement.getKey())) {
              problems.add(name + " uses unknown scheme " + requirement.getKey());
            }
            for (Object value : (JsonArray) requirement.getValue()) {
              boolean known = requirement.getKey().equals(AccessPolicy.SESSION_SCHEME)
                  ? ROLES.contains(value)
                  : Arrays.stream(Scope.values()).anyMatch(scope -> scope.id().equals(value));
              if (!known) {
                problems.add(name + " requires unknown " + requirement.getKey() + " value " + value);
              }
            }
          }
        }
      }
    }
    assertEquals(List.of(), problems);
    assertTrue(paths.size() >= 5);
  }

  private static JsonObject contract() throws Exception {
    try (InputStream in = ContractSecurityTest.class.getClassLoader().getResourceAsStream("openapi.yaml")) {
      @SuppressWarnings("unchecked")
      Map<String, Object> tree = new ObjectMapper(new YAMLFactory()).readValue(in, Map.class);
      return new JsonObject(tree);
    }
  }
}
