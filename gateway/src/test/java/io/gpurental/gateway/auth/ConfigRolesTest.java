package io.gpurental.gateway.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

  /**
   * Issue 33: a configured GitHub login is keyed on the id it had at its first sign-in. Its owner
   * renames it, someone else registers the free login: same login, another id, no operator. (The
   * sandbox's ids follow logins, so the earlier owner's pin is written as the first sign-in would.)
   */
  @Test
  void aRenamedLoginRegisteredBySomeoneElseIsNotAnOperator() {
    Map<String, String> settings = TestGateway.settings();
    settings.put("GATEWAY_AUTH_OPERATORS_GITHUB_LOGINS", "ada-ops,bob-ops");
    try (TestGateway node = TestGateway.start(settings)) {
      WebSession first = new WebSession();
      first.signIn(node, "github", "ada-ops");
      assertTrue(first.me(node).getJsonArray("roles").contains("operator"), "the first sign-in pins ada-ops's id");
      assertEquals(1L, node.sql("SELECT count(*) FROM operator_login_pins p JOIN identities i ON i.subject = p.subject"
          + " WHERE p.login = 'ada-ops' AND i.provider = 'github'").iterator().next().getLong(0));

      // bob-ops's first owner signed in long ago with GitHub id 1; the login now belongs to another id
      node.sql("INSERT INTO operator_login_pins (login, subject) VALUES ('bob-ops', '1')");
      WebSession newcomer = new WebSession();
      newcomer.signIn(node, "github", "bob-ops");
      assertFalse(newcomer.me(node).getJsonArray("roles").contains("operator"), "same login, another id");
      WebSession again = new WebSession();
      again.signIn(node, "github", "ada-ops");
      assertTrue(again.me(node).getJsonArray("roles").contains("operator"), "the pinned id still is");
    }
  }
}
