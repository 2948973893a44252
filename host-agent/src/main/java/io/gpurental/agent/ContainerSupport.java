package io.gpurental.agent;

import io.gpurental.agent.protocol.DesiredInstance;
import io.gpurental.agent.protocol.DesiredState;
import io.gpurental.agent.protocol.GatewayClient;
import io.gpurental.agent.runtime.Commands;
import io.gpurental.agent.runtime.container.ContainerRuntime;
import io.gpurental.agent.runtime.container.Isolation;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's Fleet III duties beyond instances: enrolment facts (runtime, toolkit and engine
 * versions), the image cache and dirty GPUs in heartbeats, and pre-pulls and eviction after each
 * desired state (one maintenance at a time). Without the container runtime, only the facts.
 */
final class ContainerSupport {
  private static final Logger LOG = LoggerFactory.getLogger(ContainerSupport.class);
  private static final Pattern VERSION = Pattern.compile("version\\s+v?(\\d+(?:\\.\\d+)+)");

  private final Vertx vertx;
  private final RuntimeKind kind;
  private final ContainerRuntime containers;
  private final String nvidiaCtk;
  private boolean maintaining;
  private final java.util.concurrent.atomic.AtomicBoolean listing = new java.util.concurrent.atomic.AtomicBoolean();
  private volatile List<GatewayClient.CachedImage> images = List.of();
  /** The isolation facts the gateway has (null: none sent since this start): a heartbeat carries them when they change. */
  private volatile Isolation delivered;

  ContainerSupport(Vertx vertx, RuntimeKind kind, ContainerRuntime containers, String nvidiaCtk) {
    this.vertx = vertx;
    this.nvidiaCtk = nvidiaCtk;
    this.kind = kind;
    this.containers = containers;
  }

  /** The runtime facts of the enrolment; the engine's version only with the container runtime. */
  Future<GatewayClient.RuntimeFacts> facts() {
    Future<String> engine = containers == null ? Future.succeededFuture(null)
        : containers.engineVersion().recover(e -> {
          LOG.warn("the container engine does not answer: {}", e.getMessage());
          return Future.succeededFuture(null);
        });
    Future<String> toolkit = vertx.executeBlocking(() -> toolkitVersion(Commands.system(), nvidiaCtk), false);
    return Future.all(engine, toolkit).map(v -> new GatewayClient.RuntimeFacts(kind.name().toLowerCase(),
        toolkit.result(), engine.result(), containers == null ? null : containers.isolation().json()));
  }

  /** {@code nvidia-ctk --version}'s version ({@code nvidiaCtk}: a name on PATH or a path), null when it is not installed or says none. */
  static String toolkitVersion(Commands commands, String nvidiaCtk) {
    try {
      Commands.Result r = commands.run(List.of(nvidiaCtk, "--version"), Duration.ofSeconds(10));
      Matcher m = VERSION.matcher(r.out());
      return r.ok() && m.find() ? m.group(1) : null;
    } catch (java.io.IOException e) {
      return null;
    }
  }

  /**
   * For the heartbeat: the image cache as last listed (a listing starts in the background, so a
   * slow or hung engine never delays a heartbeat) and the dirty GPUs; null without the container
   * runtime.
   */
  GatewayClient.ContainerState heartbeatState() {
    if (containers == null) {
      return null;
    }
    refreshImages();
    Isolation now = containers.isolation();
    return new GatewayClient.ContainerState(images, List.copyOf(containers.dirtyGpus()),
        now.equals(delivered) ? null : now);
  }

  /** A heartbeat with {@code state} was taken: its isolation facts need not be sent again. */
  void delivered(GatewayClient.ContainerState state) {
    if (state != null && state.isolation() != null) {
      delivered = state.isolation();
    }
  }

  private void refreshImages() {
    if (!listing.compareAndSet(false, true)) {
      return;
    }
    vertx.executeBlocking(() -> containers.images().cached().stream()
        .map(i -> new GatewayClient.CachedImage(i.ref(), i.digest(), i.sizeBytes(), i.lastUsedAt())).toList(), false)
        .onComplete(ar -> {
          listing.set(false);
          if (ar.succeeded()) {
            images = ar.result();
          } else {
            LOG.warn("cannot list the engine's images: {}", ar.cause().getMessage());
          }
        });
  }

  /** Pre-pulls the templates and evicts past the limit, never an image a desired instance uses. */
  void maintain(DesiredState state) {
    if (containers != null) {
      containers.images().templates(state.prePull()); // before any start of this state: templates are not bounded
    }
    if (containers == null || maintaining || (state.prePull().isEmpty() && state.imageCacheLimitGb() == null)) {
      return;
    }
    maintaining = true;
    Set<String> inUse = state.instances().stream().map(DesiredInstance::image).filter(Objects::nonNull)
        .map(DesiredInstance.Image::ref).collect(Collectors.toSet());
    vertx.executeBlocking(() -> {
      Long limitBytes = state.imageCacheLimitGb() == null ? null : state.imageCacheLimitGb() * 1_000_000_000L;
      containers.maintainImages(state.prePull(), limitBytes, inUse);
      return null;
    }, false).onComplete(ar -> {
      maintaining = false;
      if (ar.failed()) {
        LOG.warn("image cache maintenance failed: {}", ar.cause().getMessage());
      }
    });
  }
}
