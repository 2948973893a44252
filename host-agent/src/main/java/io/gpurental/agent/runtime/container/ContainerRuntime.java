package io.gpurental.agent.runtime.container;

import io.gpurental.agent.protocol.DesiredInstance;
import io.gpurental.agent.protocol.InstanceReport;
import io.gpurental.agent.protocol.InstanceReport.Port;
import io.gpurental.agent.protocol.SshEndpoint;
import io.gpurental.agent.runtime.Commands;
import io.gpurental.agent.runtime.InstanceFailure;
import io.gpurental.agent.runtime.InstanceRuntime;
import io.gpurental.agent.runtime.SshKeys;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Each instance is a container of the renter's image, driven through the Docker Engine API on the
 * engine's unix socket (Docker Engine or {@code podman system service}): exactly its GPUs by CDI
 * name, limits, no privileges, a network of its own with egress rules, dropbear from outside the
 * image, {@code /workspace} as a volume. Everything carries the instance id as a label, and
 * {@link #list()} finds instances by that label alone. All engine and host work runs on worker
 * threads with hard timeouts; the agent never reads anything from inside a container.
 */
public final class ContainerRuntime implements InstanceRuntime {
  private static final Logger LOG = LoggerFactory.getLogger(ContainerRuntime.class);
  static final String LABEL = "io.gpurental.instance";
  static final String LABEL_SSH_PORT = "io.gpurental.ssh-port";
  static final String LABEL_PORTS = "io.gpurental.ports";
  static final String LABEL_GPUS = "io.gpurental.gpus";
  /**
   * Which agent owns the object: an agent adopts and removes only its own scope's instances, so a
   * second agent (or a second test run) on the same engine is never taken for leftovers.
   */
  static final String LABEL_SCOPE = "io.gpurental.agent";

  private final Vertx vertx;
  private final Engine engine;
  private final ContainerFiles files;
  private final EgressRules rules;
  private final HostPorts hostPorts;
  private final GpuCleanliness gpus;
  private final String publicAddress;
  private final Images images;
  private final ContainerCreator creator;
  private final Map<String, List<Port>> published = new ConcurrentHashMap<>();
  /** One stop of an instance at a time ({@link #stop}): a lock per stripe of instance ids, bounded. */
  private final Object[] stopStripes = java.util.stream.Stream.generate(Object::new).limit(64).toArray();
  private final String scope;
  private volatile BiConsumer<String, InstanceReport> progress = (id, report) -> { };
  private volatile boolean userNamespaces = true;
  /** Docker's userns-remap root (uid, gid) on the host; null: Podman (its inspect names the map) or no remap. */
  private volatile int[] dockerRemappedRoot;
  /** The last listing could not reach the engine: exits seen next may be its restart's, so the host's. */
  private volatile boolean lastListingFailed;

  public ContainerRuntime(Vertx vertx, Settings settings, Commands commands) {
    this.vertx = vertx;
    this.engine = new Engine(settings.socket());
    this.files = new ContainerFiles(settings.stateDir().resolve("containers"), new SshBundle(settings.dropbear(), commands));
    this.rules = new EgressRules(commands);
    this.hostPorts = new HostPorts(settings.ports());
    this.gpus = new GpuCleanliness(settings.nvidiaSmi(), commands);
    this.publicAddress = settings.publicAddress();
    this.images = new Images(engine, settings.maxPullBytes());
    this.creator = new ContainerCreator(engine);
    this.scope = settings.scope();
  }

  /**
   * Where the engine is and what the runtime may use; {@code maxPullBytes} bounds the pull of a
   * renter's own image ({@code --max-pull-gb}).
   */
  public record Settings(Path socket, Path stateDir, String publicAddress,
      io.gpurental.agent.runtime.PortRange ports, Path dropbear, String nvidiaSmi, String scope, long maxPullBytes) {
    /** The agent's default: {@value #DEFAULT_MAX_PULL_GB} GB. */
    public static final long DEFAULT_MAX_PULL_GB = 50;

    public Settings(Path socket, Path stateDir, String publicAddress, io.gpurental.agent.runtime.PortRange ports,
        Path dropbear, String nvidiaSmi, String scope) {
      this(socket, stateDir, publicAddress, ports, dropbear, nvidiaSmi, scope, DEFAULT_MAX_PULL_GB * 1_000_000_000L);
    }
  }

  /** Where {@code pulling} reports go (the reconciler's reporter). */
  public void progress(BiConsumer<String, InstanceReport> listener) {
    this.progress = listener;
  }

  /**
   * Before the agent enrols or adopts anything: the engine answers on its socket, and a Docker
   * daemon without user namespaces is refused unless {@code allowDockerWithoutUserns} (then said in
   * the host's facts). Fails with a message naming the socket and the flag.
   */
  public Future<Isolation> preflight(boolean allowDockerWithoutUserns) {
    return vertx.executeBlocking(() -> {
      EnginePreflight preflight = new EnginePreflight(engine);
      userNamespaces = preflight.userNamespaces(allowDockerWithoutUserns);
      dockerRemappedRoot = preflight.remappedRoot();
      return isolation();
    }, false);
  }

  /** What the runtime can promise now (the disk limit is known after the first create with one). */
  public Isolation isolation() {
    return new Isolation(userNamespaces, creator.diskLimit());
  }

  /** "podman 4.3.1" / "docker 27.1.0", for the enrolment facts. */
  public Future<String> engineVersion() {
    return vertx.executeBlocking(engine::version, false);
  }

  public Images images() {
    return images;
  }

  /**
   * The image cache's upkeep (blocking): {@code desired} are the images the desired instances use;
   * the images of every container of this agent count as in use too (an instance the gateway no
   * longer wants may still be running until its stop).
   */
  public void maintainImages(List<String> prePull, Long limitBytes, java.util.Set<String> desired) throws IOException {
    java.util.Set<String> inUse = new java.util.HashSet<>(desired);
    for (Object o : engine.containers(scoped())) {
      JsonObject c = (JsonObject) o;
      inUse.add(c.getString("Image"));
    }
    images.maintain(prePull, limitBytes, inUse);
  }

  /** GPUs that still had a process after their instance was removed (reported unhealthy). */
  public java.util.Set<String> dirtyGpus() {
    return gpus.dirty();
  }

  @Override
  public List<Port> ports(String instanceId) {
    return published.getOrDefault(instanceId, List.of());
  }

  @Override
  public Future<List<ActualInstance>> list() {
    return vertx.executeBlocking(() -> {
      boolean engineWasDown = lastListingFailed;
      try {
        List<ActualInstance> found = listBlocking(engineWasDown);
        lastListingFailed = false;
        return found;
      } catch (IOException | RuntimeException e) {
        lastListingFailed = true;
        throw e;
      }
    }, false);
  }

  @Override
  public Future<SshEndpoint> start(DesiredInstance instance) {
    return vertx.executeBlocking(() -> startBlocking(instance), false);
  }

  /**
   * Two stops of one instance (a reconcile pass and the next one) run one after the other: side by
   * side, both removed the same volume, and Podman answered the second 500 "no such volume" (not
   * 404) because the first removed it between its lookup and its removal. The second finds
   * everything gone, which each removal accepts.
   */
  @Override
  public Future<Void> stop(String instanceId) {
    return vertx.executeBlocking(() -> {
      synchronized (stopStripes[Math.floorMod(instanceId.hashCode(), stopStripes.length)]) {
        stopBlocking(instanceId);
      }
      return null;
    }, false);
  }

  private List<ActualInstance> listBlocking(boolean engineWasDown) throws IOException {
    gpus.check(List.of()); // a GPU found dirty is looked at again on every listing until clean
    Map<String, JsonObject> containers = Labels.byInstance(engine.containers(scoped()), "Labels");
    List<ActualInstance> found = new ArrayList<>();
    for (Map.Entry<String, JsonObject> c : containers.entrySet()) {
      String id = c.getKey();
      Map<String, String> labels = Labels.of(c.getValue().getJsonObject("Labels"));
      hostPorts.taken(id, Labels.hostPorts(labels));
      published.put(id, Labels.ports(labels));
      boolean running = "running".equals(c.getValue().getString("State"));
      SshEndpoint ssh = running ? adopt(id, labels) : null;
      found.add(new ActualInstance(id, ssh, ssh != null ? null
          : running ? InstanceFailure.RUNTIME_ERROR : exitReason(c.getValue().getString("Id"), engineWasDown)));
    }
    // a network or volume without its container is the leftover of a start or stop cut short
    for (String id : Labels.byInstance(engine.networks(scoped()), "Labels").keySet()) {
      if (!containers.containsKey(id)) {
        found.add(new ActualInstance(id, null, InstanceFailure.RUNTIME_ERROR));
      }
    }
    for (String id : Labels.byInstance(engine.volumes(scoped()), "Labels").keySet()) {
      if (!containers.containsKey(id) && found.stream().noneMatch(a -> a.id().equals(id))) {
        found.add(new ActualInstance(id, null, InstanceFailure.RUNTIME_ERROR));
      }
    }
    return found;
  }

  /** Whose doing the end of a container found not running was (the renter's own exit, or the host's). */
  private String exitReason(String containerId, boolean engineWasDown) throws IOException {
    JsonObject inspected = engine.inspect(containerId);
    String reason = ExitCause.reasonOf(inspected, engineWasDown);
    LOG.info("container {} is not running ({}): {}", containerId, ExitCause.describe(inspected), reason);
    return reason;
  }

  /** A running container found by label: its endpoint from the agent's own files and labels. */
  private SshEndpoint adopt(String id, Map<String, String> labels) {
    try {
      if (!rules.installed(id)) {
        JsonObject net = engine.network(Names.network(id));
        rules.install(id, Names.subnet(net), Names.gateway(net));
      }
      String hostKey = SshBundle.hostPublicKey(files.keys(id));
      return new SshEndpoint(publicAddress, Integer.parseInt(labels.get(LABEL_SSH_PORT)), "root",
          SshKeys.fingerprint(hostKey), hostKey);
    } catch (IOException | RuntimeException e) {
      LOG.warn("instance {} cannot be adopted: {}", id, e.getMessage());
      return null;
    }
  }

  private String scoped() {
    return LABEL_SCOPE + "=" + scope;
  }

  private SshEndpoint startBlocking(DesiredInstance d) throws IOException {
    Names.check(d.id());
    if (d.gpus().isEmpty() || d.gpus().stream().anyMatch(g -> gpus.dirty().contains(g.uuid()))) {
      throw new InstanceFailure(InstanceFailure.GPU_UNAVAILABLE, "no GPU given, or one still holds a process");
    }
    if (d.image() == null || d.image().ref() == null) {
      throw new InstanceFailure(InstanceFailure.IMAGE_UNAVAILABLE, "the desired state names no image");
    }
    images.ensureForStart(d.image().ref(), (done, total) -> progress.accept(d.id(), InstanceReport.pulling(done, total)));
    String hostKey = files.prepare(d.id(), d.sshPublicKey());
    List<Integer> ports = hostPorts.reserve(d.id(), 1 + (d.image().ports() == null ? 0 : d.image().ports().size()),
        rules.forwardedPorts());
    List<Port> extra = new ArrayList<>();
    for (int i = 1; i < ports.size(); i++) {
      extra.add(new Port(d.image().ports().get(i - 1), ports.get(i)));
    }
    Map<String, String> labels = Labels.forInstance(d, ports.get(0), extra);
    labels.put(LABEL_SCOPE, scope);
    JsonObject net = ensureNetwork(d.id(), labels);
    if (Labels.byInstance(engine.volumes(scoped(), LABEL + "=" + d.id()), "Labels").isEmpty()) {
      engine.createVolume(Names.volume(d.id()), new JsonObject().put(LABEL, d.id()).put(LABEL_SCOPE, scope));
    }
    engine.remove(Names.container(d.id())); // a container left by a start cut short
    creator.create(new ContainerSpec(Names.container(d.id()), d, labels, Names.network(d.id()), Names.volume(d.id()),
        files.bundle(), files.keys(d.id()), ports.get(0), extra, creator.quotaWanted()));
    if (!engine.exists(Names.container(d.id()), "/bin/sh")) {
      throw new InstanceFailure(InstanceFailure.IMAGE_UNAVAILABLE, "the image " + d.image().ref()
          + " has no /bin/sh: SSH sessions need a POSIX shell in the image");
    }
    int[] root = dockerRemappedRoot != null ? dockerRemappedRoot : Names.rootIds(engine.inspectIds(Names.container(d.id())));
    SshBundle.chown(files.keys(d.id()), root[0], root[1]);
    try {
      engine.start(Names.container(d.id()));
    } catch (IOException e) {
      throw ContainerCreator.failure(e); // Docker resolves CDI devices only at the start
    }
    rules.install(d.id(), Names.subnet(net), Names.gateway(net));
    // the environment as the engine made it at the start (Podman adds the CDI spec's variables then)
    JsonObject started = engine.inspect(Names.container(d.id()));
    SshBundle.writeEnv(files.keys(d.id()),
        SessionEnv.render(started == null ? null : started.getJsonObject("Config", new JsonObject()).getJsonArray("Env")));
    published.put(d.id(), extra);
    images.used(d.image().ref());
    HostPorts.awaitListening(ports.get(0));
    return new SshEndpoint(publicAddress, ports.get(0), "root", SshKeys.fingerprint(hostKey), hostKey);
  }

  private JsonObject ensureNetwork(String id, Map<String, String> labels) throws IOException {
    JsonObject net = engine.network(Names.network(id));
    if (net == null) {
      engine.createNetwork(new JsonObject().put("Name", Names.network(id)).put("CheckDuplicate", true)
          .put("Driver", "bridge").put("Labels", new JsonObject().put(LABEL, id).put(LABEL_SCOPE, scope)));
      net = engine.network(Names.network(id));
    }
    return net;
  }

  /** In order: container (killed with everything in it), rules, network, volume; then the GPUs. */
  private void stopBlocking(String id) throws IOException {
    Names.check(id);
    JsonObject c = engine.inspect(Names.container(id));
    List<String> gpuUuids = c == null ? List.of() : Labels.gpus(c.getJsonObject("Config", new JsonObject()));
    engine.remove(Names.container(id));
    rules.remove(id);
    engine.removeNetwork(Names.network(id));
    engine.removeVolume(Names.volume(id));
    files.remove(id);
    hostPorts.release(id);
    published.remove(id);
    gpus.check(gpuUuids);
  }
}
