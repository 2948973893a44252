package io.gpurental.gateway.fleet;

import io.gpurental.gateway.platform.errors.Conflict;
import io.vertx.core.json.JsonObject;

/**
 * What the runtime a host's agent reports means for renting it. A {@code container} host gives
 * each renter a container with only their GPUs, which is only as safe as the NVIDIA Container
 * Toolkit that injects them: toolkits before 1.17.8 let an image escape to the host
 * (CVE-2025-23266 and earlier), so such a host is not activated, nor one whose toolkit is not
 * known. {@code process} and {@code simulated} hosts use no toolkit.
 */
final class RuntimeChecks {
  static final String CONTAINER = "container";
  static final String PROCESS = "process";
  static final String SIMULATED = "simulated";
  static final String SAFE_TOOLKIT = "1.17.8";
  static final String CVE = "CVE-2025-23266";

  private RuntimeChecks() {}

  /** 409 for a container host whose toolkit is older than 1.17.8 or unknown. */
  static void requireSafeToolkit(String hostId, String runtime, String toolkitVersion) {
    if (!CONTAINER.equals(runtime)) {
      return;
    }
    if (toolkitVersion == null || toolkitVersion.isBlank()) {
      throw new Conflict("Host " + hostId + " runs containers but reported no NVIDIA Container Toolkit version; "
          + "install " + SAFE_TOOLKIT + " or later (" + CVE + ": older toolkits let an image escape to the host), "
          + "restart the agent, then activate.", details(null));
    }
    if (compare(toolkitVersion, SAFE_TOOLKIT) < 0) {
      throw new Conflict("Host " + hostId + " runs the NVIDIA Container Toolkit " + toolkitVersion + ", older than "
          + SAFE_TOOLKIT + ": " + CVE + " lets an image escape to the host. Upgrade the toolkit, restart the agent,"
          + " then activate.", details(toolkitVersion));
    }
  }

  private static JsonObject details(String version) {
    return new JsonObject().put("container_toolkit_version", version).put("minimum_version", SAFE_TOOLKIT)
        .put("cve", CVE);
  }

  /**
   * Compares dotted versions numerically ({@code 1.17.10} after {@code 1.17.8}); a part that is
   * not a number (e.g. {@code 1.17.8-rc.1}) counts by its leading digits, and a pre-release
   * suffix sorts before the release.
   */
  static int compare(String a, String b) {
    String[] x = a.trim().replaceFirst("^[vV]", "").split("[.]");
    String[] y = b.trim().replaceFirst("^[vV]", "").split("[.]");
    for (int i = 0; i < Math.max(x.length, y.length); i++) {
      long p = i < x.length ? leading(x[i]) : 0;
      long q = i < y.length ? leading(y[i]) : 0;
      if (p != q) {
        return Long.compare(p, q);
      }
    }
    boolean preA = a.contains("-");
    boolean preB = b.contains("-");
    return preA == preB ? 0 : preA ? -1 : 1;
  }

  private static long leading(String part) {
    int end = 0;
    while (end < part.length() && end < 9 && Character.isDigit(part.charAt(end))) {
      end++;
    }
    return end == 0 ? 0 : Long.parseLong(part.substring(0, end));
  }
}
