package io.gpurental.gateway.config;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Loads the configuration: the packaged {@code conf/gateway.yaml} (every setting with its
 * default), then an optional {@code --config FILE}, then {@code GATEWAY_*} environment
 * variables, and maps the result to {@link GatewayConfig}.
 */
public final class ConfigLoader {
  static final String DEFAULTS_RESOURCE = "conf/gateway.yaml";
  private static final String ENV_PREFIX = "GATEWAY_";
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private ConfigLoader() {}

  /** Loads from command-line arguments and an environment (normally {@code System.getenv()}). */
  public static GatewayConfig load(List<String> args, Map<String, String> env) {
    Map<String, Object> values = flatten(readDefaults());
    Optional<Path> file = configFileArgument(args);
    file.ifPresent(path -> overlayFile(values, path));
    overlayEnvironment(values, env);
    return map(new Settings(values));
  }

  /** The environment variable that overrides a setting, e.g. http.port -> GATEWAY_HTTP_PORT. */
  public static String environmentVariable(String path) {
    return ENV_PREFIX + path.toUpperCase(Locale.ROOT).replace('.', '_');
  }

  private static Optional<Path> configFileArgument(List<String> args) {
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if (arg.equals("--config")) {
        if (i + 1 >= args.size()) {
          throw new ConfigException("--config needs a file path");
        }
        return Optional.of(Path.of(args.get(i + 1)));
      }
      if (arg.startsWith("--config=")) {
        return Optional.of(Path.of(arg.substring("--config=".length())));
      }
      throw new ConfigException("unknown argument '" + arg + "' (the only option is --config FILE)");
    }
    return Optional.empty();
  }

  private static Map<String, Object> readDefaults() {
    try (InputStream in = ConfigLoader.class.getClassLoader().getResourceAsStream(DEFAULTS_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(DEFAULTS_RESOURCE + " is missing from the classpath");
      }
      return readTree(in.readAllBytes(), DEFAULTS_RESOURCE);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + DEFAULTS_RESOURCE, e);
    }
  }

  private static void overlayFile(Map<String, Object> values, Path path) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(path);
    } catch (IOException e) {
      throw new ConfigException("--config: cannot read " + path + " (" + e.getMessage() + ")");
    }
    flatten(readTree(bytes, path.toString())).forEach((key, value) -> {
      if (!values.containsKey(key)) {
        throw new ConfigException(key, "unknown setting in " + path);
      }
      values.put(key, value);
    });
  }

  private static void overlayEnvironment(Map<String, Object> values, Map<String, String> env) {
    for (String key : values.keySet()) {
      String override = env.get(environmentVariable(key));
      if (override != null) {
        values.put(key, override);
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> readTree(byte[] yaml, String source) {
    try {
      Object tree = YAML.readValue(yaml, Object.class);
      if (tree == null) {
        return Map.of();
      }
      if (!(tree instanceof Map)) {
        throw new ConfigException(source + ": expected a YAML mapping at the top level");
      }
      return (Map<String, Object>) tree;
    } catch (JacksonException e) {
      throw new ConfigException(source + ": not valid YAML (" + e.getOriginalMessage() + ")");
    } catch (IOException e) {
      throw new ConfigException(source + ": cannot be read (" + e.getMessage() + ")");
    }
  }

  private static Map<String, Object> flatten(Map<String, Object> tree) {
    Map<String, Object> flat = new LinkedHashMap<>();
    flattenInto("", tree, flat);
    return flat;
  }

  @SuppressWarnings("unchecked")
  private static void flattenInto(String prefix, Map<String, Object> tree, Map<String, Object> flat) {
    tree.forEach((key, value) -> {
      String path = prefix + key;
      if (value instanceof Map<?, ?> nested) {
        flattenInto(path + ".", (Map<String, Object>) nested, flat);
      } else {
        flat.put(path, value);
      }
    });
  }

  private static GatewayConfig map(Settings s) {
    Mode mode = s.oneOf("mode", Mode.class);
    HttpConfig http = http(s);
    SandboxConfig sandbox = new SandboxConfig(s.bool("sandbox.allow_public"), s.bool("sandbox.seed_history"));
    if (mode == Mode.SANDBOX) {
      refuseExposedSandbox(http, sandbox.allowPublic());
    } else if (!http.behindTls()) {
      throw new ConfigException("http.public_url", "production mode needs an https URL (Secure cookies, HSTS);"
          + " set " + environmentVariable("http.public_url") + "=https://your.domain (got '" + http.publicUrl() + "')");
    }
    return new GatewayConfig(mode, http, db(s), cluster(s), AuthSettings.auth(s, mode, http.publicUrl()),
        new RateLimitConfig(
            s.intBetween("rate_limits.sign_ins_per_minute", 1, 100_000),
            s.intBetween("rate_limits.token_creations_per_hour", 1, 100_000),
            s.intBetween("rate_limits.writes_per_minute", 1, 1_000_000),
            s.intBetween("rate_limits.agent_polls_per_minute", 1, 1_000_000)),
        PricingSettings.pricing(s, mode),
        StripeSettings.stripe(s, mode, http.publicUrl()),
        new ReservationConfig(
            Duration.ofMinutes(s.intBetween("reservations.hold_minutes", 1, 24 * 60)),
            s.intBetween("reservations.cancellation_fee_bps", 0, 10_000),
            Duration.ofMillis(s.intBetween("reservations.scheduler_interval_ms", 100, 3_600_000)),
            Duration.ofMillis(s.intBetween("reservations.sandbox_instance_ready_ms", 0, 3_600_000))),
        new ManagementConfig(s.nonBlank("management.host"), s.intBetween("management.port", 0, 65535)),
        new EventsConfig(
            s.intBetween("events.max_streams_per_account", 1, 10_000),
            s.intBetween("events.max_streams_per_node", 1, 1_000_000),
            Duration.ofSeconds(s.intBetween("events.credential_recheck_seconds", 1, 3_600))),
        new FleetConfig(Duration.ofSeconds(s.intBetween("fleet.heartbeat_interval_seconds", 1, 3600)),
            s.intBetween("fleet.offline_after_missed", 1, 1000),
            FleetHealthSettings.health(s), FleetHealthSettings.telemetry(s),
            Duration.ofMinutes(s.intBetween("fleet.ready_deadline_minutes", 0, 24 * 60)),
            Duration.ofMinutes(s.intBetween("fleet.failure_grace_minutes", 1, 24 * 60))),
        AlertsSettings.alerts(s), sandbox, MailConfig.from(s));
  }

  /** Sandbox mode lets anyone who reaches it sign in as any test person, the operator included. */
  private static void refuseExposedSandbox(HttpConfig http, boolean allowPublic) {
    if (http.behindTls()) {
      throw new ConfigException("mode", "sandbox mode lets anyone sign in as any test person (operators included),"
          + " so it refuses an https http.public_url; set " + environmentVariable("mode") + "=production to deploy");
    }
    if (!HostAddresses.isLoopback(http.host()) && !allowPublic) {
      throw new ConfigException("http.host", "sandbox mode lets anyone who reaches it sign in as the operator,"
          + " so it listens only on loopback (got '" + http.host() + "'); set "
          + environmentVariable("sandbox.allow_public") + "=true to expose a demo on purpose");
    }
  }

  private static HttpConfig http(Settings s) {
    String host = s.nonBlank("http.host");
    int port = s.port("http.port");
    return new HttpConfig(
        host,
        port,
        s.intBetween("http.instances", 0, 256),
        s.intBetween("http.body_limit_bytes", 1024, 64 * 1024 * 1024),
        s.string("http.public_url").isEmpty()
            ? URI.create("http://" + HostAddresses.urlHost(host) + ":" + port)
            : s.url("http.public_url", "http", "https"),
        Duration.ofSeconds(s.intBetween("http.drain_timeout_seconds", 0, 600)),
        Duration.ofMillis(s.intBetween("http.unready_grace_ms", 0, 60_000)),
        s.bool("http.trust_forwarded_headers"));
  }

  private static DbConfig db(Settings s) {
    Optional<java.net.URI> url = s.string("db.url").isEmpty()
        ? Optional.empty()
        : Optional.of(s.url("db.url", "postgresql", "postgres"));
    return new DbConfig(
        url,
        s.nonBlank("db.user"),
        s.string("db.password"),
        s.intBetween("db.pool_size", 1, 1000),
        dbLimits(s),
        Path.of(s.nonBlank("db.embedded.data_dir")),
        s.intBetween("db.embedded.port", 0, 65535));
  }

  private static DbLimits dbLimits(Settings s) {
    return new DbLimits(
        Duration.ofMillis(s.intBetween("db.connect_timeout_ms", 100, 60_000)),
        Duration.ofMillis(s.intBetween("db.statement_timeout_ms", 100, 3_600_000)),
        Duration.ofMillis(s.intBetween("db.pool_wait_timeout_ms", 100, 60_000)),
        s.intBetween("db.pool_wait_queue_size", 1, 100_000));
  }

  private static ClusterConfig cluster(Settings s) {
    return new ClusterConfig(
        s.nonBlank("cluster.name"),
        s.nonBlank("cluster.host"),
        s.port("cluster.port"),
        s.intBetween("cluster.port_count", 1, 1000),
        s.intBetween("cluster.event_bus_port", 0, 65535),
        members(s.list("cluster.members")));
  }

  /** Each member is a host or host:port; a bad entry would otherwise fail deep inside Hazelcast. */
  private static List<String> members(List<String> members) {
    for (String member : members) {
      int colon = member.lastIndexOf(':');
      if (colon >= 0) {
        String port = member.substring(colon + 1);
        if (!port.matches("\\d{1,5}") || Integer.parseInt(port) < 1 || Integer.parseInt(port) > 65535) {
          throw new ConfigException("cluster.members", "'" + member + "' must be host or host:port with a port 1-65535");
        }
      }
      if (colon == 0 || member.contains(" ")) {
        throw new ConfigException("cluster.members", "'" + member + "' must be host or host:port");
      }
    }
    return members;
  }
}
