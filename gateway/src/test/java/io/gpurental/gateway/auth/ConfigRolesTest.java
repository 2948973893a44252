package io.gpurental.gateway.auth;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.TestDatabase;
import io.gpurental.gateway.testing.TestGateway;
import io.gpurental.gateway.testing.WebSession;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Roles granted by config follow config: removed from config, withdrawn at the next sign-in. */
class ConfigRolesTest {
  @Test
  void operatorRemovedFromConfigLosesTheRoleAtNextSignIn() {
    String database = TestDatabase.newDatabaseUrl();
    Map<String, String> withZed = TestGateway.settings();
    withZed.put("GATEWAY_DB_URL", database);
    withZed.put("GATEWAY_AUTH_OPERATORS_GITHUB_LOGINS", "zed");
    try (TestGateway node = TestGateway.start(withZed)) {
      WebSession zed = new WebSession();
      zed.signIn(node, "github", "zed");
      assertTrue(zed.me(node).getJsonArray("roles").contains("operator"));
    }
    Map<String, String> withoutZed = TestGateway.settings();
    withoutZed.put("GATEWAY_DB_URL", database);
    try (TestGateway node = TestGateway.start(withoutZed)) {
      WebSession zed = new WebSession();
      zed.signIn(node, "github", "zed");
      assertFalse(zed.me(node).getJsonArray("roles").contains("operator"));
    }
  }
}
