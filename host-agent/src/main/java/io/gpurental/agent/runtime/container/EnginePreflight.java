package io.gpurental.agent.runtime.container;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine checks of the agent's start: its socket is there and answers, and Docker keeps a
 * container's root off the host's root. Podman needs no check: the runtime gives every container
 * {@code --userns=auto}. Docker's user namespaces are the daemon's ({@code userns-remap}, or its
 * rootless mode), named in {@code /info}'s {@code SecurityOptions}. Blocking: workers only.
 */
final class EnginePreflight {
  private static final Logger LOG = LoggerFactory.getLogger(EnginePreflight.class);
  static final String ALLOW_FLAG = "--allow-docker-without-userns";
  /** With userns-remap, Docker keeps its data under {@code <data-root>/<uid>.<gid>} of the remapped root. */
  private static final Pattern REMAPPED_ROOT = Pattern.compile("/(\\d+)\\.(\\d+)/?$");

  private final Engine engine;
  private volatile int[] remappedRoot;

  EnginePreflight(Engine engine) {
    this.engine = engine;
  }

  /** Whether containers' root is an unprivileged host user; refuses Docker without unless allowed. */
  boolean userNamespaces(boolean allowDockerWithoutUserns) {
    if (!Files.exists(engine.socket())) {
      throw new IllegalArgumentException("the container engine's socket " + engine.socket() + " does not exist"
          + " (--engine-socket PATH, env GPR_AGENT_ENGINE_SOCKET): start the engine (Docker, or"
          + " podman system service unix://" + engine.socket() + ") or point --engine-socket at its socket");
    }
    try {
      if (engine.podman()) {
        return true;
      }
      JsonObject info = engine.info();
      JsonArray options = info.getJsonArray("SecurityOptions", new JsonArray());
      if (options.stream().map(String::valueOf).anyMatch(o -> o.startsWith("name=rootless"))) {
        return true;
      }
      if (options.stream().map(String::valueOf).anyMatch(o -> o.equals("name=userns") || o.startsWith("name=userns,"))) {
        remappedRoot = remappedRoot(info.getString("DockerRootDir", ""));
        return true;
      }
    } catch (IOException e) {
      throw new IllegalArgumentException("the container engine at " + engine.socket() + " does not answer"
          + " (--engine-socket PATH, env GPR_AGENT_ENGINE_SOCKET): " + e.getMessage(), e);
    }
    if (!allowDockerWithoutUserns) {
      throw new IllegalArgumentException("Docker at " + engine.socket() + " runs containers without user namespaces:"
          + " a renter's root in a container would be root on this host. Turn on userns-remap in"
          + " /etc/docker/daemon.json (\"userns-remap\": \"default\") or use Podman; to run anyway, start the agent with "
          + ALLOW_FLAG + " (env GPR_AGENT_ALLOW_DOCKER_WITHOUT_USERNS=true): the host's facts then say so");
    }
    LOG.warn("Docker at {} runs containers without user namespaces: a renter's root is root on this host"
        + " ({} given; the host's facts say so)", engine.socket(), ALLOW_FLAG);
    return false;
  }

  /**
   * The host uid and gid of a container's root under Docker's userns-remap (its inspect names no
   * map, unlike Podman's), from the data root it uses then; null when not remapped or not known.
   */
  int[] remappedRoot() {
    return remappedRoot;
  }

  static int[] remappedRoot(String dockerRootDir) {
    Matcher m = REMAPPED_ROOT.matcher(dockerRootDir);
    return m.find() ? new int[] {(int) Long.parseLong(m.group(1)), (int) Long.parseLong(m.group(2))} : null;
  }
}
