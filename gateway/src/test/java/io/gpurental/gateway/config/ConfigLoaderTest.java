package io.gpurental.gateway.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
    assertEquals(List.of(), config.cluster().members());
    assertEquals(Duration.ofSeconds(20), config.http().drainTimeout());
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
    GatewayConfig config = ConfigLoader.load(List.of(), Map.of(
        "GATEWAY_HTTP_PORT", "9090",
        "GATEWAY_DB_URL", "postgresql://app:secret@db.internal:6543/rentals",
        "GATEWAY_DB_POOL_SIZE", "32",
        "GATEWAY_CLUSTER_MEMBERS", "10.0.0.1:5701, 10.0.0.2",
        "GATEWAY_MODE", "production",
        "GATEWAY_AUTH_GITHUB_CLIENT_ID", "Iv1.abc",
        "GATEWAY_AUTH_GITHUB_CLIENT_SECRET", "s3cret",
        "GATEWAY_PRICING_QUOTE_SIGNING_KEY", "a-production-key-of-at-least-32-chars"));
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

  @Test
  void productionNeedsAQuoteSigningKey() {
    ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.load(List.of(), Map.of(
        "GATEWAY_MODE", "production", "GATEWAY_AUTH_GITHUB_CLIENT_ID", "a", "GATEWAY_AUTH_GITHUB_CLIENT_SECRET", "b")));
    assertTrue(e.getMessage().startsWith("pricing.quote_signing_key: is required in production"), e.getMessage());
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
    ConfigException e = assertThrows(ConfigException.class,
        () -> ConfigLoader.load(List.of(), Map.of("GATEWAY_MODE", "production")));
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
