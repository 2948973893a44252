package io.gpurental.gateway.platform.cluster;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.internal.util.ConcurrencyUtil;
import io.gpurental.gateway.config.ClusterConfig;
import io.vertx.spi.cluster.hazelcast.ConfigUtil;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Builds the Hazelcast member every gateway node runs: TCP-IP join with the configured members
 * (never multicast or cloud auto-detection), bound to the configured interface, no phone-home.
 * With no members the node is alone: no join at all, and a cluster name of its own so that no
 * other node can join it either. It starts from {@link ConfigUtil#loadConfig()} so the maps
 * Vert.x needs keep their settings.
 */
public final class HazelcastSetup {
  /** Longest a stopping node waits for Hazelcast to hand its partitions over. */
  static final int GRACEFUL_SHUTDOWN_SECONDS = 10;
  /** How often a member looks for a split-off part of its cluster to merge with. */
  static final int MERGE_CHECK_SECONDS = 10;

  /**
   * Where Hazelcast runs the callbacks of its futures (Vert.x's shared maps complete their futures
   * through them). Its default is the common fork-join pool, except when that pool has one thread
   * (fewer than 3 cores): then it starts a new thread per callback, measured as a thread for
   * every quote and every write request in the hold and heartbeat profile (docs/benchmarks.md).
   * The callbacks only hand results to Vert.x, so a pool of reused daemon threads serves them.
   */
  private static final ExecutorService CALLBACKS = Executors.newCachedThreadPool(new ThreadFactory());

  private HazelcastSetup() {}

  public static HazelcastClusterManager clusterManager(ClusterConfig cluster) {
    ConcurrencyUtil.setDefaultAsyncExecutor(CALLBACKS);
    return new HazelcastClusterManager(hazelcastConfig(cluster));
  }

  /** Daemon threads named after what they do. */
  private static final class ThreadFactory implements java.util.concurrent.ThreadFactory {
    private final AtomicInteger count = new AtomicInteger();

    @Override
    public Thread newThread(Runnable task) {
      Thread thread = new Thread(task, "hazelcast-callbacks-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    }
  }

  static Config hazelcastConfig(ClusterConfig cluster) {
    Config config = ConfigUtil.loadConfig();
    boolean alone = cluster.members().isEmpty();
    // alone, a node whose port was taken would otherwise join whatever listens on it
    config.setClusterName(alone ? cluster.name() + "-alone-" + UUID.randomUUID() : cluster.name());
    config.setInstanceName(cluster.name() + "-" + cluster.host() + "-" + cluster.port()
        + "-" + Long.toHexString(System.nanoTime()));
    // the gateway stops Hazelcast itself, after draining HTTP and before stopping PostgreSQL
    config.setProperty("hazelcast.shutdownhook.enabled", "false");
    // a stop right after the master left waited for partition safety up to Hazelcast's 600 s
    // default; the clustered state is ephemeral (sessions, caches, locks), so a stop is bounded
    config.setProperty("hazelcast.graceful.shutdown.max.wait", String.valueOf(GRACEFUL_SHUTDOWN_SECONDS));
    config.setProperty("hazelcast.phone.home.enabled", "false");
    // a member the others dropped (paused 90 s in scenario 7) forms a cluster of its own; Hazelcast
    // looks for such splits to merge only 300 s after start and then every 120 s by default, which
    // kept it apart (sessions, rate limits and job locks its own) for minutes
    config.setProperty("hazelcast.merge.first.run.delay.seconds", String.valueOf(MERGE_CHECK_SECONDS));
    config.setProperty("hazelcast.merge.next.run.delay.seconds", String.valueOf(MERGE_CHECK_SECONDS));
    config.setProperty("hazelcast.logging.type", "slf4j");

    NetworkConfig network = config.getNetworkConfig();
    network.setPort(cluster.port()).setPortCount(cluster.portCount()).setPortAutoIncrement(cluster.portCount() > 1);
    network.setPublicAddress(null);
    network.getInterfaces().setEnabled(true).setInterfaces(List.of(cluster.host()));
    config.setProperty("hazelcast.local.localAddress", cluster.host());
    config.setProperty("hazelcast.socket.bind.any", "false");

    JoinConfig join = network.getJoin();
    join.getMulticastConfig().setEnabled(false);
    join.getAutoDetectionConfig().setEnabled(false);
    join.getAwsConfig().setEnabled(false);
    join.getKubernetesConfig().setEnabled(false);
    join.getTcpIpConfig().setEnabled(!alone).setMembers(cluster.members());
    return config;
  }
}
