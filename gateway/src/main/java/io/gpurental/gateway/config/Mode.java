package io.gpurental.gateway.config;

/** Whether the gateway runs against offline stand-ins (sandbox) or the real providers. */
public enum Mode {
  SANDBOX,
  PRODUCTION;

  public String id() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
