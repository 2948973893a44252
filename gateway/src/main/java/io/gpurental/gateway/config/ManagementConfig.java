package io.gpurental.gateway.config;

/** The management listener (Prometheus metrics and health), apart from the public port; port 0 turns it off. */
public record ManagementConfig(String host, int port) {

  public boolean enabled() {
    return port != 0;
  }
}
