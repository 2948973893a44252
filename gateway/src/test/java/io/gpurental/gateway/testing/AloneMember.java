package io.gpurental.gateway.testing;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import java.util.UUID;

/** A Hazelcast member that joins nobody: a cluster of its own name, on a free loopback port. */
public final class AloneMember {
  private AloneMember() {}

  public static Config config(String namePrefix) {
    Config config = new Config().setClusterName(namePrefix + "-" + UUID.randomUUID());
    config.setProperty("hazelcast.phone.home.enabled", "false");
    config.getNetworkConfig().setPort(FreePorts.next()).setPortAutoIncrement(false);
    config.getNetworkConfig().getInterfaces().setEnabled(true).addInterface("127.0.0.1");
    JoinConfig join = config.getNetworkConfig().getJoin();
    join.getMulticastConfig().setEnabled(false);
    join.getTcpIpConfig().setEnabled(false);
    join.getAutoDetectionConfig().setEnabled(false);
    return config;
  }
}
