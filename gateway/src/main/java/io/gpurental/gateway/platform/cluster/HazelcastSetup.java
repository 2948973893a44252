package io.gpurental.gateway.platform.cluster;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import io.gpurental.gateway.config.ClusterConfig;
import io.vertx.spi.cluster.hazelcast.ConfigUtil;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.util.List;

/**
 * Builds the Hazelcast member every gateway node runs: TCP-IP join with the configured members
 * (never multicast or cloud auto-detection), bound to the configured interface, no phone-home.
 * It starts from {@link ConfigUtil#loadConfig()} so the maps Vert.x needs keep their settings.
 */
public final class HazelcastSetup {
  private HazelcastSetup() {}

  public static HazelcastClusterManager clusterManager(ClusterConfig cluster) {
    return new HazelcastClusterManager(hazelcastConfig(cluster));
  }

  static Config hazelcastConfig(ClusterConfig cluster) {
    Config config = ConfigUtil.loadConfig();
    config.setClusterName(cluster.name());
    config.setInstanceName(cluster.name() + "-" + cluster.host() + "-" + cluster.port()
        + "-" + Long.toHexString(System.nanoTime()));
    // the gateway stops Hazelcast itself, after draining HTTP and before stopping PostgreSQL
    config.setProperty("hazelcast.shutdownhook.enabled", "false");
    config.setProperty("hazelcast.phone.home.enabled", "false");
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
    join.getTcpIpConfig().setEnabled(true).setMembers(members(cluster));
    return config;
  }

  /**
   * Alone, the node lists only its own address: listing just the host would make Hazelcast probe
   * every port of the port range for peers before it settles (seconds at each start).
   */
  private static List<String> members(ClusterConfig cluster) {
    return cluster.members().isEmpty() ? List.of(cluster.host() + ":" + cluster.port()) : cluster.members();
  }
}
