package io.gpurental.gateway.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {
  @TempDir
  Path dir;

  @Test
  void defaultsStartASandboxNodeAloneOnLoopbackWithEmbeddedPostgres() {
    GatewayConfig config = ConfigLoader.load(List.of(), Map.of());
    assertEquals(Mode.SANDBOX, config.mode());
    assertEquals(8080, config.http().port());
    assertEquals("127.0.0.1", config.http().host());
    assertEquals(65536, config.http().bodyLimitBytes());
    assertTrue(config.db().embedded());
    assertEquals(Path.of("./data/postgres"), config.db().embeddedDataDir());
    assertEquals(0, config.db().embeddedPort(), "embedded PostgreSQL on any free port");
    assertEquals(List.of(), config.cluster().members());
    assertEquals(Duration.ofSeconds(20), config.http().drainTimeout());
    assertEquals(Duration.ofMillis(2000), config.http().unreadyGrace());
  }

  @Test
  void metricsAreOnALoopbackManagementPortThatZeroTurnsOff() {
    ManagementConfig defaults = ConfigLoader.load(List.of(), Map.of()).management();
    assertEquals("127.0.0.1", defaults.host());
    assertEquals(9091, defaults.port());
    assertTrue(defaults.enabled());
    assertEquals(false, ConfigLoader.load(List.of(), Map.of("GATEWAY_MANAGEMENT_PORT", "0")).management().enabled());
    ConfigException e = assertThrows(ConfigException.class,
        () -> ConfigLoader.load(List.of(), Map.of("GATEWAY_MANAGEMENT_PORT", "70000")));
    assertTrue(e.getMessage().startsWith("management.port:"), e.getMessage());
  }

  @Test
  void databaseWaitsAreBoundedToSecondsByDefault() {
    DbLimits limits = ConfigLoader.load(List.of(), Map.of()).db().limits();
    assertEquals(Duration.ofSeconds(2), limits.connectTimeout());
    assertEquals(Duration.ofSeconds(3), limits.statementTimeout());
    assertEquals(Duration.ofSeconds(2), limits.poolWaitTimeout());
    assertEquals(200, limits.poolWaitQueueSize());
    assertEquals(Duration.ofMillis(500),
        ConfigLoader.load(List.of(), Map.of("GATEWAY_DB_POOL_WAIT_TIMEOUT_MS", "500")).db().limits().poolWaitTimeout());
  }

  @Test
  void environmentOverridesEverySetting() {
    Map<String, String> env = production();
    env.putAll(Map.of(
        "GATEWAY_HTTP_PORT", "9090",
        "GATEWAY_DB_URL", "postgresql://app:secret@db.internal:6543/rentals",
        "GATEWAY_DB_POOL_SIZE", "32",
        "GATEWAY_CLUSTER_MEMBERS", "10.0.0.1:5701, 10.0.0.2"));
    GatewayConfig config = ConfigLoader.load(List.of(), env);
    assertEquals(9090, config.http().port());
    assertEquals(Mode.PRODUCTION, config.mode());
    assertEquals(32, config.db().poolSize());
    assertEquals("db.internal", config.db().url().orElseThrow().getHost());
    assertEquals(List.of("10.0.0.1:5701", "10.0.0.2"), config.cluster().members());
    AuthConfig.Provider github = config.auth().github().orElseThrow();
    assertEquals("https://github.com", github.site().toString());
    assertEquals(false, github.sandbox());
    assertTrue(config.auth().google().isEmpty(), "unconfigured providers are off in production");
    assertEquals(List.of(), config.auth().operatorGithubLogins(), "no sandbox operator in production");
  }

  @Test
  void sandboxPointsUnconfiguredProvidersAtTheBuiltInStandIns() {
    GatewayConfig config = ConfigLoader.load(List.of(), Map.of("GATEWAY_HTTP_PUBLIC_URL", "http://127.0.0.1:9000"));
    assertEquals("http://127.0.0.1:9000/sandbox/github", config.auth().github().orElseThrow().site().toString());
    assertEquals("http://127.0.0.1:9000/sandbox/google", config.auth().google().orElseThrow().site().toString());
    assertEquals(List.of("operator"), config.auth().operatorGithubLogins());
  }

  /** Everything production mode requires, for tests that take one piece away. */
  private static Map<String, String> production() {
    return new HashMap<>(Map.of(
        "GATEWAY_MODE", "production",
        "GATEWAY_HTTP_PUBLIC_URL", "https://gpus.example.com",
        "GATEWAY_AUTH_GITHUB_CLIENT_ID", "Iv1.abc",
        "GATEWAY_AUTH_GITHUB_CLIENT_SECRET", "s3cret",
        "GATEWAY_PRICING_QUOTE_SIGNING_KEY", "a-production-key-of-at-least-32-chars",
        "GATEWAY_STRIPE_SECRET_KEY", "sk_live_51Example",
        "GATEWAY_STRIPE_WEBHOOK_SECRET", "whsec_example"));
  }

  private static String productionErrorWith(String variable, String value) {
    Map<String, String> env = production();
    if (value == null) {
      env.remove(variable);
    } else {
      env.put(variable, value);
    }
    return assertThrows(ConfigException.class, () -> ConfigLoader.load(List.of(), env)).getMessage();
  }

  @Test
  void productionStartsWithEverythingItRequires() {
    GatewayConfig config = ConfigLoader.load(List.of(), production());
    assertEquals("sk_live_51Example", config.stripe().secretKey());
    assertEquals("whsec_example", config.stripe().webhookSecret());
    assertEquals(false, config.stripe().sandbox());
  }

  @Test
  void productionNeedsAQuoteSigningKey() {
    String e = productionErrorWith("GATEWAY_PRICING_QUOTE_SIGNING_KEY", null);
    assertTrue(e.startsWith("pricing.quote_signing_key: is required in production"), e);
  }

  @Test
  void productionNeedsAStripeSecretKeyAndWebhookSecretNamingTheMissingOne() {
    String noKey = productionErrorWith("GATEWAY_STRIPE_SECRET_KEY", null);
    assertTrue(noKey.startsWith("stripe.secret_key: is required in production"), noKey);
    assertTrue(noKey.contains("GATEWAY_STRIPE_SECRET_KEY"), noKey);
    String publishableKey = productionErrorWith("GATEWAY_STRIPE_SECRET_KEY", "pk_live_51Example");
    assertTrue(publishableKey.startsWith("stripe.secret_key: must be a Stripe secret key"), publishableKey);
    assertFalse(publishableKey.contains("pk_live_51Example"), "a secret is never echoed: " + publishableKey);
    Map<String, String> restrictedKey = production();
    restrictedKey.put("GATEWAY_STRIPE_SECRET_KEY", "rk_live_51Example");
    assertEquals("rk_live_51Example", ConfigLoader.load(List.of(), restrictedKey).stripe().secretKey());
    String noWebhookSecret = productionErrorWith("GATEWAY_STRIPE_WEBHOOK_SECRET", null);
    assertTrue(noWebhookSecret.startsWith("stripe.webhook_secret: is required in production"), noWebhookSecret);
    String badWebhookSecret = productionErrorWith("GATEWAY_STRIPE_WEBHOOK_SECRET", "s3cret");
    assertTrue(badWebhookSecret.startsWith("stripe.webhook_secret: must be a Stripe webhook signing secret"),
        badWebhookSecret);
  }

  @Test
  void productionNeedsAnHttpsPublicUrl() {
    String http = productionErrorWith("GATEWAY_HTTP_PUBLIC_URL", "http://gpus.example.com");
    assertTrue(http.startsWith("http.public_url: production mode needs an https URL"), http);
    String unset = productionErrorWith("GATEWAY_HTTP_PUBLIC_URL", null);
    assertTrue(unset.startsWith("http.public_url: production mode needs an https URL"), unset);
  }

  @Test
  void unsetPublicUrlFollowsHostAndPort() {
    assertEquals("http://localhost:8080", ConfigLoader.load(List.of(), Map.of()).http().publicUrl().toString());
    assertEquals("http://localhost:9090",
        ConfigLoader.load(List.of(), Map.of("GATEWAY_HTTP_PORT", "9090")).http().publicUrl().toString());
    Map<String, String> publicDemo = Map.of("GATEWAY_SANDBOX_ALLOW_PUBLIC", "true", "GATEWAY_HTTP_PORT", "9090");
    Map<String, String> everyInterface = new HashMap<>(publicDemo);
    everyInterface.put("GATEWAY_HTTP_HOST", "0.0.0.0");
    assertEquals("http://localhost:9090", ConfigLoader.load(List.of(), everyInterface).http().publicUrl().toString());
    Map<String, String> oneInterface = new HashMap<>(publicDemo);
    oneInterface.put("GATEWAY_HTTP_HOST", "10.1.2.3");
    assertEquals("http://10.1.2.3:9090", ConfigLoader.load(List.of(), oneInterface).http().publicUrl().toString());
  }

  @Test
  void sandboxRefusesANonLoopbackHostUnlessAllowedPublicExplicitly() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> ConfigLoader.load(List.of(), Map.of("GATEWAY_HTTP_HOST", "0.0.0.0")));
    assertTrue(e.getMessage().startsWith("http.host: sandbox mode"), e.getMessage());
    assertTrue(e.getMessage().contains("GATEWAY_SANDBOX_ALLOW_PUBLIC=true"), e.getMessage());
    assertEquals("0.0.0.0", ConfigLoader.load(List.of(),
        Map.of("GATEWAY_HTTP_HOST", "0.0.0.0", "GATEWAY_SANDBOX_ALLOW_PUBLIC", "true")).http().host());
    assertEquals("::1", ConfigLoader.load(List.of(), Map.of("GATEWAY_HTTP_HOST", "::1")).http().host());
  }

  @Test
  void malformedDurationDiscountNamesTheSetting() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> ConfigLoader.load(List.of(), Map.of("GATEWAY_PRICING_DURATION_DISCOUNTS", "24h:5%")));
    assertTrue(e.getMessage().startsWith("pricing.duration_discounts:"), e.getMessage());
  }

  @Test
  void sandboxRefusesAnHttpsPublicUrl() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> ConfigLoader.load(List.of(), Map.of("GATEWAY_HTTP_PUBLIC_URL", "https://gpus.example.com")));
    assertTrue(e.getMessage().startsWith("mode: sandbox mode"), e.getMessage());
  }

  @Test
  void productionWithoutAnyIdentityProviderNamesWhatToSet() {
    Map<String, String> env = production();
    env.remove("GATEWAY_AUTH_GITHUB_CLIENT_ID");
    env.remove("GATEWAY_AUTH_GITHUB_CLIENT_SECRET");
    ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.load(List.of(), env));
    assertTrue(e.getMessage().contains("GATEWAY_AUTH_GITHUB_CLIENT_ID"), e.getMessage());
  }

  @Test
  void providerClientIdWithoutSecretNamesTheSecret() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> ConfigLoader.load(List.of(), Map.of("GATEWAY_AUTH_GOOGLE_CLIENT_ID", "x.apps.googleusercontent.com")));
    assertEquals("auth.google.client_secret: must not be empty", e.getMessage());
  }

  @Test
  void configFileOverridesDefaultsAndEnvironmentOverridesTheFile() throws IOException {
    Path file = dir.resolve("gateway.yaml");
    Files.writeString(file, "http:\n  port: 7070\n  body_limit_bytes: 2048\ncluster:\n  members: [a.example, b.example]\n");
    GatewayConfig config = ConfigLoader.load(List.of("--config", file.toString()), Map.of("GATEWAY_HTTP_PORT", "7071"));
    assertEquals(7071, config.http().port());
    assertEquals(2048, config.http().bodyLimitBytes());
    assertEquals(List.of("a.example", "b.example"), config.cluster().members());
  }

  @Test
  void badPortNamesTheSetting() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> ConfigLoader.load(List.of(), Map.of("GATEWAY_HTTP_PORT", "99999")));
    assertEquals("http.port: must be between 1 and 65535 (got 99999)", e.getMessage());
    ConfigException notNumber = assertThrows(ConfigException.class,
        () -> ConfigLoader.load(List.of(), Map.of("GATEWAY_DB_EMBEDDED_PORT", "abc")));
    assertTrue(notNumber.getMessage().startsWith("db.embedded.port: must be a whole number"), notNumber.getMessage());
  }

  @Test
  void unknownModeNamesTheSettingAndTheChoices() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> ConfigLoader.load(List.of(), Map.of("GATEWAY_MODE", "staging")));
    assertEquals("mode: must be one of sandbox, production (got 'staging')", e.getMessage());
  }

  @Test
  void malformedDatabaseUrlNamesTheSetting() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> ConfigLoader.load(List.of(), Map.of("GATEWAY_DB_URL", "mysql://db/x")));
    assertTrue(e.getMessage().startsWith("db.url: must be a URL like postgresql://"), e.getMessage());
    ConfigException unparsable = assertThrows(ConfigException.class,
        () -> ConfigLoader.load(List.of(), Map.of("GATEWAY_HTTP_PUBLIC_URL", "http://bad host")));
    assertTrue(unparsable.getMessage().startsWith("http.public_url: is not a valid URL"), unparsable.getMessage());
  }

  @Test
  void malformedClusterMemberNamesTheSetting() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> ConfigLoader.load(List.of(), Map.of("GATEWAY_CLUSTER_MEMBERS", "10.0.0.1:70000")));
    assertTrue(e.getMessage().startsWith("cluster.members:"), e.getMessage());
  }

  @Test
  void typoInConfigFileNamesTheUnknownSetting() throws IOException {
    Path file = dir.resolve("typo.yaml");
    Files.writeString(file, "http:\n  prot: 80\n");
    ConfigException e = assertThrows(ConfigException.class,
        () -> ConfigLoader.load(List.of("--config", file.toString()), Map.of()));
    assertEquals("http.prot: unknown setting in " + file, e.getMessage());
  }

  @Test
  void unknownArgumentIsRefused() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> ConfigLoader.load(List.of("--port", "80"), Map.of()));
    assertTrue(e.getMessage().contains("--port"), e.getMessage());
  }
}
