package io.gpurental.gateway.platform;

import io.gpurental.gateway.config.Mode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** What is running: the build version, the database schema version it migrated to, the mode. */
public record BuildInfo(String version, String schemaVersion, Mode mode) {
  private static final String RESOURCE = "gateway-build.properties";

  /** The build version Maven wrote into the jar. */
  public static String buildVersion() {
    try (InputStream in = BuildInfo.class.getClassLoader().getResourceAsStream(RESOURCE)) {
      if (in == null) {
        return "unknown";
      }
      Properties properties = new Properties();
      properties.load(in);
      return properties.getProperty("version", "unknown");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
