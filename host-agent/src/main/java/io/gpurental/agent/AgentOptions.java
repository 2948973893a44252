package io.gpurental.agent;

import io.gpurental.agent.runtime.PortRange;
import io.gpurental.agent.simulated.SimulatedHost;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * How an agent runs: the command line's flags, plus a few knobs for embedding (the gateway's
 * simulated demo fleet, tests). Fluent setters, like Vert.x's own options.
 */
public final class AgentOptions {
  private final String gateway;
  private final Path stateDir;
  private String enrollmentToken;
  private RuntimeKind runtime = RuntimeKind.PROCESS;
  private String publicAddress;
  private String nvidiaSmi = "nvidia-smi";
  private PortRange sshPorts = new PortRange(22000, 22999);
  private java.nio.file.Path engineSocket = java.nio.file.Path.of("/var/run/docker.sock");
  private java.nio.file.Path dropbear = java.nio.file.Path.of("/usr/sbin/dropbear");
  private String containerScope = "gpu-host-agent";
  private String sshd = "/usr/sbin/sshd";
  private Duration simulatedRunningDelay = Duration.ofSeconds(8);
  private Duration reconcileInterval = Duration.ofSeconds(30);
  private int desiredStateWaitSeconds = 25;
  private Duration maxBackoff = Duration.ofSeconds(30);
  private String ipmitool = "ipmitool";
  private String smartctl = "smartctl";
  private String nvidiaCtk = "nvidia-ctk";
  private double baseLoadWatts = 150;
  private Duration diskHealthInterval = Duration.ofMinutes(10);
  private SimulatedHost simulatedHost;
  private long maxPullBytes = io.gpurental.agent.runtime.container.ContainerRuntime.Settings.DEFAULT_MAX_PULL_GB
      * 1_000_000_000L;
  private boolean allowDockerWithoutUserns;

  public AgentOptions(String gateway, Path stateDir) {
    this.gateway = Objects.requireNonNull(gateway, "gateway");
    this.stateDir = Objects.requireNonNull(stateDir, "stateDir");
  }

  public String gateway() {
    return gateway;
  }

  public Path stateDir() {
    return stateDir;
  }

  public String enrollmentToken() {
    return enrollmentToken;
  }

  /** Used only when the state directory holds no credential yet. */
  public AgentOptions enrollmentToken(String token) {
    this.enrollmentToken = token;
    return this;
  }

  public RuntimeKind runtime() {
    return runtime;
  }

  public AgentOptions runtime(RuntimeKind runtime) {
    this.runtime = Objects.requireNonNull(runtime);
    return this;
  }

  public String publicAddress() {
    return publicAddress;
  }

  /** The address renters connect to; sshd (process runtime) listens on it. */
  public AgentOptions publicAddress(String address) {
    this.publicAddress = address;
    return this;
  }

  public String nvidiaSmi() {
    return nvidiaSmi;
  }

  /** The nvidia-smi to run (a name looked up on PATH, or a path); absent means zero GPUs. */
  public AgentOptions nvidiaSmi(String path) {
    this.nvidiaSmi = Objects.requireNonNull(path);
    return this;
  }

  public PortRange sshPorts() {
    return sshPorts;
  }

  public AgentOptions sshPorts(PortRange ports) {
    this.sshPorts = Objects.requireNonNull(ports);
    return this;
  }

  /** The Docker Engine API socket of the container runtime (Docker, or podman system service). */
  public java.nio.file.Path engineSocket() {
    return engineSocket;
  }

  public AgentOptions engineSocket(java.nio.file.Path socket) {
    this.engineSocket = Objects.requireNonNull(socket);
    return this;
  }

  /**
   * The value of the {@code io.gpurental.agent} label on everything this agent creates; it adopts
   * and removes only objects with its own (tests give each run its own).
   */
  public String containerScope() {
    return containerScope;
  }

  public AgentOptions containerScope(String scope) {
    this.containerScope = Objects.requireNonNull(scope);
    return this;
  }

  /** The host's dropbear, bundled read-only into every container as its SSH server. */
  public java.nio.file.Path dropbear() {
    return dropbear;
  }

  public AgentOptions dropbear(java.nio.file.Path path) {
    this.dropbear = Objects.requireNonNull(path);
    return this;
  }

  public String sshd() {
    return sshd;
  }

  /** sshd must be started by its absolute path (it re-executes itself). */
  public AgentOptions sshd(String path) {
    this.sshd = Objects.requireNonNull(path);
    return this;
  }

  public Duration simulatedRunningDelay() {
    return simulatedRunningDelay;
  }

  /** How long a simulated instance takes to become running (default 8 s). */
  public AgentOptions simulatedRunningDelay(Duration delay) {
    this.simulatedRunningDelay = Objects.requireNonNull(delay);
    return this;
  }

  public Duration reconcileInterval() {
    return reconcileInterval;
  }

  /** How often the runtime is compared with the desired state besides each fetch (default 30 s). */
  public AgentOptions reconcileInterval(Duration interval) {
    this.reconcileInterval = Objects.requireNonNull(interval);
    return this;
  }

  public int desiredStateWaitSeconds() {
    return desiredStateWaitSeconds;
  }

  /** The long poll's {@code wait_seconds} (0–30, default 25). */
  public AgentOptions desiredStateWaitSeconds(int seconds) {
    if (seconds < 0 || seconds > 30) {
      throw new IllegalArgumentException("wait_seconds must be 0-30");
    }
    this.desiredStateWaitSeconds = seconds;
    return this;
  }

  public Duration maxBackoff() {
    return maxBackoff;
  }

  public AgentOptions maxBackoff(Duration cap) {
    this.maxBackoff = Objects.requireNonNull(cap);
    return this;
  }

  public String ipmitool() {
    return ipmitool;
  }

  /** The ipmitool asked for the server's wall power (a name on PATH or a path); absent means estimated power. */
  public AgentOptions ipmitool(String path) {
    this.ipmitool = Objects.requireNonNull(path);
    return this;
  }

  public String smartctl() {
    return smartctl;
  }

  /** The smartctl asked for the disks' SMART health; absent means {@code disk_health} null. */
  public AgentOptions smartctl(String path) {
    this.smartctl = Objects.requireNonNull(path);
    return this;
  }

  public String nvidiaCtk() {
    return nvidiaCtk;
  }

  /** The nvidia-ctk asked for the NVIDIA Container Toolkit's version (a name on PATH or a path); absent means unknown. */
  public AgentOptions nvidiaCtk(String path) {
    this.nvidiaCtk = Objects.requireNonNull(path);
    return this;
  }

  public double baseLoadWatts() {
    return baseLoadWatts;
  }

  /** What the server draws besides its GPUs, added to their power when the BMC gives no reading (default 150). */
  public AgentOptions baseLoadWatts(double watts) {
    if (!(watts >= 0 && watts <= 100_000)) {
      throw new IllegalArgumentException("the base load must be 0-100000 W");
    }
    this.baseLoadWatts = watts;
    return this;
  }

  public Duration diskHealthInterval() {
    return diskHealthInterval;
  }

  /** How often SMART is asked (default 10 min; the heartbeat sends the last answer). */
  public AgentOptions diskHealthInterval(Duration interval) {
    this.diskHealthInterval = Objects.requireNonNull(interval);
    return this;
  }

  public long maxPullBytes() {
    return maxPullBytes;
  }

  /**
   * The most bytes the container runtime pulls for a renter's own image (templates are not bounded):
   * past it the pull stops and the instance fails {@code image_too_large} (default 50 GB).
   */
  public AgentOptions maxPullBytes(long bytes) {
    if (bytes < 1) {
      throw new IllegalArgumentException("the pull limit must be at least 1 byte");
    }
    this.maxPullBytes = bytes;
    return this;
  }

  public boolean allowDockerWithoutUserns() {
    return allowDockerWithoutUserns;
  }

  /**
   * Runs on Docker without user namespaces (a container's root is the host's root) instead of
   * refusing to start; the host's facts say so and the operator's Hosts page warns.
   */
  public AgentOptions allowDockerWithoutUserns(boolean allow) {
    this.allowDockerWithoutUserns = allow;
    return this;
  }

  public SimulatedHost simulatedHost() {
    return simulatedHost;
  }

  /**
   * A made-up host for the simulated runtime (the sandbox's demo fleet): heartbeats carry its
   * telemetry instead of this machine's, and its faults steer heartbeats and provisioning.
   */
  public AgentOptions simulatedHost(SimulatedHost host) {
    this.simulatedHost = host;
    return this;
  }
}
