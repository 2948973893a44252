package io.gpurental.agent;

import io.gpurental.agent.runtime.PortRange;
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
  private String dockerImage = "ghcr.io/gpu-rental/instance-sshd:1";
  private String sshd = "/usr/sbin/sshd";
  private Duration simulatedRunningDelay = Duration.ofSeconds(8);
  private Duration reconcileInterval = Duration.ofSeconds(30);
  private int desiredStateWaitSeconds = 25;
  private Duration maxBackoff = Duration.ofSeconds(30);

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

  public String dockerImage() {
    return dockerImage;
  }

  public AgentOptions dockerImage(String image) {
    this.dockerImage = Objects.requireNonNull(image);
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
}
