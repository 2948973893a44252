package io.gpurental.agent.runtime.container;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * What the container runtime can promise on this host, for the host's facts (the operator's Hosts
 * page shows the warnings): whether a container's root is an unprivileged host user (Podman's
 * {@code --userns=auto} per container, Docker's {@code userns-remap} or rootless mode) and whether
 * the engine holds a container's disk limit ({@code null}: not known before the first create with
 * one).
 */
public record Isolation(boolean userNamespaces, Boolean diskLimit) {

  /** What the operator should know, one sentence each; empty when everything holds. */
  public List<String> warnings() {
    List<String> warnings = new ArrayList<>();
    if (!userNamespaces) {
      warnings.add("Docker runs without user namespaces (no userns-remap): a renter's root in a container is root"
          + " on this host. The agent was started with --allow-docker-without-userns.");
    }
    if (Boolean.FALSE.equals(diskLimit)) {
      warnings.add("The engine's storage driver cannot limit a container's disk (overlay needs xfs with pquota):"
          + " instances run without a disk limit.");
    }
    return warnings;
  }

  /** The facts' {@code container_isolation} object (docs/agent-protocol.md). */
  public JsonObject json() {
    return new JsonObject().put("user_namespaces", userNamespaces).put("disk_limit", diskLimit)
        .put("warnings", new JsonArray(new ArrayList<>(warnings())));
  }
}
