package io.gpurental.gateway.config;

/** A setting is missing or wrong; the message names the setting and what is expected. */
public final class ConfigException extends RuntimeException {
  public ConfigException(String message) {
    super(message);
  }

  public ConfigException(String setting, String problem) {
    super(setting + ": " + problem);
  }
}
