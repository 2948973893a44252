package io.gpurental.gateway;

import io.gpurental.gateway.config.ConfigException;
import io.gpurental.gateway.config.ConfigLoader;
import io.gpurental.gateway.config.GatewayConfig;
import io.gpurental.gateway.platform.start.StartFailure;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;

/** Boots one gateway node from {@code conf/gateway.yaml}, {@code --config FILE} and the environment. */
public final class Main {
  private static final Logger LOG = LoggerFactory.getLogger(Main.class);
  /** Time for the cluster member and PostgreSQL to stop after HTTP has drained. */
  private static final Duration STOP_MARGIN = Duration.ofSeconds(30);

  private Main() {}

  public static void main(String[] args) {
    SLF4JBridgeHandler.removeHandlersForRootLogger();
    SLF4JBridgeHandler.install();
    System.setProperty("hazelcast.logging.type", "slf4j");

    GatewayConfig config;
    try {
      config = ConfigLoader.load(Arrays.asList(args), System.getenv());
    } catch (ConfigException e) {
      System.err.println("Configuration error: " + e.getMessage());
      System.exit(2);
      return;
    }

    long started = System.nanoTime();
    Gateway gateway;
    try {
      gateway = Gateway.start(config).await();
    } catch (Exception e) {
      Throwable cause = e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e;
      if (isRefusal(cause)) {
        // a start refused for a reason the message names (a port or data directory in use, another
        // cluster's database): one line, no stack trace
        LOG.error("The gateway could not start: {}", cause.getMessage());
      } else {
        LOG.error("The gateway could not start: {}", cause.getMessage(), cause);
      }
      System.exit(1);
      return;
    }
    LOG.info("Ready in {} ms: open {}", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started),
        config.http().publicUrl());
    Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(gateway), "gateway-shutdown"));
  }

  /**
   * A refusal the message explains (bad config, a port or directory in use, another cluster's
   * database), also when a start step wraps it; anything else is logged with its stack trace.
   */
  private static boolean isRefusal(Throwable failure) {
    Throwable inner = failure instanceof StartFailure && failure.getCause() != null ? failure.getCause() : failure;
    return inner instanceof ConfigException || inner instanceof IllegalStateException;
  }

  private static void stop(Gateway gateway) {
    Duration bound = gateway.config().http().unreadyGrace()
        .plus(gateway.config().http().drainTimeout()).plus(STOP_MARGIN);
    try {
      gateway.stop().toCompletionStage().toCompletableFuture().get(bound.toMillis(), TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      LOG.error("Shutdown did not finish cleanly within {} s", bound.toSeconds(), e);
    }
  }
}
