package io.gpurental.agent.runtime.container;

import io.gpurental.agent.runtime.InstanceFailure;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * Engine object names of an instance (only to address them: instances are found by label) and the
 * few facts read from the engine's own answers.
 */
final class Names {
  private Names() {
  }

  /** Ids go into names, paths and iptables comments: nothing but a plain token. */
  static void check(String id) {
    if (id == null || !id.matches("[A-Za-z0-9_-]{1,64}")) {
      throw new InstanceFailure(InstanceFailure.RUNTIME_ERROR, "not an instance id: " + id);
    }
  }

  static String container(String id) {
    return "gpr-" + id;
  }

  static String network(String id) {
    return "gpr-" + id + "-net";
  }

  static String volume(String id) {
    return "gpr-" + id + "-workspace";
  }

  static String subnet(JsonObject network) {
    return ipam(network).getString("Subnet");
  }

  static String gateway(JsonObject network) {
    return ipam(network).getString("Gateway");
  }

  private static JsonObject ipam(JsonObject network) {
    if (network == null) {
      throw new IllegalStateException("the instance's network is gone");
    }
    JsonArray config = network.getJsonObject("IPAM", new JsonObject()).getJsonArray("Config", new JsonArray());
    if (config.isEmpty() || config.getJsonObject(0).getString("Subnet") == null) {
      throw new IllegalStateException("the engine gave the network " + network.getString("Name") + " no subnet");
    }
    return config.getJsonObject(0);
  }

  /**
   * The host uid and gid of the container's root: Podman's inspect names its user-namespace map
   * ({@code 0:HOST:SIZE}); without one (Docker without userns-remap), root is root.
   */
  static int[] rootIds(JsonObject inspect) {
    JsonObject maps = inspect == null ? null : inspect.getJsonObject("HostConfig", new JsonObject()).getJsonObject("IDMappings");
    if (maps == null) {
      return new int[] {0, 0};
    }
    return new int[] {hostIdOfRoot(maps.getJsonArray("UidMap")), hostIdOfRoot(maps.getJsonArray("GidMap"))};
  }

  private static int hostIdOfRoot(JsonArray map) {
    if (map != null) {
      for (Object entry : map) {
        String[] parts = String.valueOf(entry).split(":");
        if (parts.length == 3 && parts[0].equals("0")) {
          // uid_t is unsigned 32 bits and ranges above 2^31 are common (/etc/subuid): the int
          // NIO takes keeps the same bits, which is what chown(2) receives
          return (int) Long.parseLong(parts[1]);
        }
      }
    }
    return 0;
  }

  /**
   * The engine's own answer that its storage driver cannot limit a container's disk: Podman and
   * Docker's overlay say "--storage-opt is supported only for overlay over xfs with 'pquota' mount
   * option", other drivers "--storage-opt is not supported" / "Storage Opt is not supported". Any
   * other error that mentions a size or a quota (a bad value, a full disk, a quota exceeded) is not it.
   */
  static boolean quotaRefusal(String message) {
    String m = String.valueOf(message).toLowerCase(java.util.Locale.ROOT);
    boolean aboutTheOption = m.contains("storage-opt") || m.contains("storage opt");
    boolean unsupported = m.contains("not supported") || m.contains("supported only") || m.contains("only supported");
    return aboutTheOption && unsupported;
  }
}
