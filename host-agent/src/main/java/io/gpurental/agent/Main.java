package io.gpurental.agent;

import io.gpurental.agent.runtime.PortRange;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code java -jar gpu-host-agent.jar --gateway URL --state-dir DIR …}: every flag also reads an environment variable. */
@Command(name = "gpu-host-agent", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
    sortOptions = false, description = "Runs GPU instances on this server for the GPU Rental gateway.")
public final class Main implements Callable<Integer> {
  /** Exit status when the gateway refused the credential or token (a restart will not help). */
  static final int REFUSED = 3;
  private static final Logger LOG = LoggerFactory.getLogger(Main.class);
  private static final long STOP_SECONDS = 5;

  @Spec
  CommandSpec spec;

  @Option(names = "--gateway", defaultValue = "${env:GPR_AGENT_GATEWAY}", paramLabel = "URL",
      description = "The gateway's base URL, e.g. https://gpus.example.com (env GPR_AGENT_GATEWAY).")
  String gateway;

  @Option(names = "--state-dir", defaultValue = "${env:GPR_AGENT_STATE_DIR}", paramLabel = "DIR",
      description = "Where the credential and instance records live (env GPR_AGENT_STATE_DIR).")
  Path stateDir;

  @Option(names = "--enrollment-token-file", defaultValue = "${env:GPR_AGENT_ENROLLMENT_TOKEN_FILE}", paramLabel = "FILE",
      description = "A file holding the one-time gpr_enr_… token; needed only on the first start"
          + " (env GPR_AGENT_ENROLLMENT_TOKEN_FILE, or the token itself in GPR_AGENT_ENROLLMENT_TOKEN).")
  Path enrollmentTokenFile;

  @Option(names = "--runtime", defaultValue = "${env:GPR_AGENT_RUNTIME:-container}", paramLabel = "KIND",
      description = "process, container or simulated (default ${DEFAULT-VALUE}; env GPR_AGENT_RUNTIME).")
  RuntimeKind runtime;

  @Option(names = "--public-address", defaultValue = "${env:GPR_AGENT_PUBLIC_ADDRESS}", paramLabel = "ADDR",
      description = "The address renters connect to; needed by the process and container runtimes (env GPR_AGENT_PUBLIC_ADDRESS).")
  String publicAddress;

  @Option(names = "--nvidia-smi", defaultValue = "${env:GPR_AGENT_NVIDIA_SMI:-nvidia-smi}", paramLabel = "PATH",
      description = "The nvidia-smi to run (default ${DEFAULT-VALUE}; env GPR_AGENT_NVIDIA_SMI).")
  String nvidiaSmi;

  @Option(names = "--ssh-port-range", defaultValue = "${env:GPR_AGENT_SSH_PORT_RANGE:-22000-22999}",
      paramLabel = "FIRST-LAST", converter = PortRangeConverter.class,
      description = "Host ports for instances' SSH (default ${DEFAULT-VALUE}; env GPR_AGENT_SSH_PORT_RANGE).")
  PortRange sshPorts;

  @Option(names = "--engine-socket", defaultValue = "${env:GPR_AGENT_ENGINE_SOCKET:-/var/run/docker.sock}",
      paramLabel = "PATH", description = "The Docker Engine API socket of the container runtime: Docker's, or"
          + " podman system service's (default ${DEFAULT-VALUE}; env GPR_AGENT_ENGINE_SOCKET).")
  Path engineSocket;

  @Option(names = "--max-pull-gb", defaultValue = "${env:GPR_AGENT_MAX_PULL_GB:-50}", paramLabel = "GB",
      description = "The most a renter's own image may pull, in GB (10^9 bytes); past it the pull stops and the"
          + " instance fails image_too_large. Templates are not bounded (default ${DEFAULT-VALUE};"
          + " env GPR_AGENT_MAX_PULL_GB).")
  long maxPullGb;

  @Option(names = "--allow-docker-without-userns", defaultValue = "${env:GPR_AGENT_ALLOW_DOCKER_WITHOUT_USERNS:-false}",
      description = "Run on a Docker daemon without userns-remap, where a container's root is the host's root;"
          + " without it the agent refuses to start there. The host's facts and the operator's Hosts page say so"
          + " (env GPR_AGENT_ALLOW_DOCKER_WITHOUT_USERNS).")
  boolean allowDockerWithoutUserns;

  @Option(names = "--dropbear", defaultValue = "${env:GPR_AGENT_DROPBEAR:-/usr/sbin/dropbear}", paramLabel = "PATH",
      description = "The host's dropbear (Debian's dropbear-bin), the SSH server the container runtime mounts into"
          + " every container (default ${DEFAULT-VALUE}; env GPR_AGENT_DROPBEAR).")
  Path dropbear;

  @Option(names = "--ipmitool", defaultValue = "${env:GPR_AGENT_IPMITOOL:-ipmitool}", paramLabel = "PATH",
      description = "The ipmitool asked for the server's wall power (default ${DEFAULT-VALUE}; env GPR_AGENT_IPMITOOL).")
  String ipmitool;

  @Option(names = "--smartctl", defaultValue = "${env:GPR_AGENT_SMARTCTL:-smartctl}", paramLabel = "PATH",
      description = "The smartctl asked for the disks' SMART health (default ${DEFAULT-VALUE}; env GPR_AGENT_SMARTCTL).")
  String smartctl;

  @Option(names = "--nvidia-ctk", defaultValue = "${env:GPR_AGENT_NVIDIA_CTK:-nvidia-ctk}", paramLabel = "PATH",
      description = "The nvidia-ctk asked for the NVIDIA Container Toolkit's version, which the gateway checks on"
          + " activation (default ${DEFAULT-VALUE}; env GPR_AGENT_NVIDIA_CTK).")
  String nvidiaCtk;

  @Option(names = "--base-load-watts", defaultValue = "${env:GPR_AGENT_BASE_LOAD_WATTS:-150}", paramLabel = "W",
      description = "The server's draw besides its GPUs, for estimated power when the BMC gives none"
          + " (default ${DEFAULT-VALUE}; env GPR_AGENT_BASE_LOAD_WATTS).")
  double baseLoadWatts;

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  static CommandLine commandLine() {
    return new CommandLine(new Main()).setCaseInsensitiveEnumValuesAllowed(true)
        .setParameterExceptionHandler((e, args) -> {
          e.getCommandLine().getErr().println(e.getMessage() + " (see --help)");
          return CommandLine.ExitCode.USAGE;
        });
  }

  /** The options the flags describe; a missing required flag is a usage error. */
  AgentOptions options() {
    if (gateway == null || gateway.isBlank()) {
      throw new ParameterException(spec.commandLine(), "Missing --gateway URL (or GPR_AGENT_GATEWAY)");
    }
    if (!gateway.matches("https?://.+")) {
      throw new ParameterException(spec.commandLine(), "--gateway must be an http:// or https:// URL, got '" + gateway + "'");
    }
    if (!GatewayUrls.safe(gateway)) {
      throw new ParameterException(spec.commandLine(), "--gateway must be https:// unless it is on this machine"
          + " (http://127.0.0.1, http://[::1] or http://localhost): the host credential and renters' keys would"
          + " travel in clear, got '" + gateway + "'");
    }
    if (stateDir == null) {
      throw new ParameterException(spec.commandLine(), "Missing --state-dir DIR (or GPR_AGENT_STATE_DIR)");
    }
    if (!(baseLoadWatts >= 0 && baseLoadWatts <= 100_000)) {
      throw new ParameterException(spec.commandLine(), "--base-load-watts must be 0-100000, got " + baseLoadWatts);
    }
    if (maxPullGb < 1 || maxPullGb > 100_000) {
      throw new ParameterException(spec.commandLine(), "--max-pull-gb must be 1-100000, got " + maxPullGb);
    }
    return new AgentOptions(gateway, stateDir).enrollmentToken(enrollmentToken()).runtime(runtime)
        .publicAddress(publicAddress).nvidiaSmi(nvidiaSmi).sshPorts(sshPorts).engineSocket(engineSocket).dropbear(dropbear)
        .ipmitool(ipmitool).smartctl(smartctl).nvidiaCtk(nvidiaCtk).baseLoadWatts(baseLoadWatts)
        .maxPullBytes(maxPullGb * 1_000_000_000L).allowDockerWithoutUserns(allowDockerWithoutUserns);
  }

  /**
   * From a file or the environment, never from the command line, where every user of the
   * machine could read it in the process list.
   */
  private String enrollmentToken() {
    if (enrollmentTokenFile == null) {
      String fromEnvironment = System.getenv("GPR_AGENT_ENROLLMENT_TOKEN");
      return fromEnvironment == null || fromEnvironment.isBlank() ? null : fromEnvironment.strip();
    }
    try {
      return java.nio.file.Files.readString(enrollmentTokenFile).strip();
    } catch (java.io.IOException e) {
      throw new ParameterException(spec.commandLine(), "--enrollment-token-file " + enrollmentTokenFile
          + " cannot be read: " + e.getMessage());
    }
  }

  @Override
  public Integer call() {
    AgentOptions options = options();
    Vertx vertx = Vertx.vertx();
    HostAgent agent;
    try {
      agent = HostAgent.start(vertx, options).await();
    } catch (Exception e) {
      LOG.error("the agent could not start: {}", e.getMessage());
      vertx.close().await();
      return e instanceof IllegalStateException ? REFUSED : 1;
    }
    Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(agent, vertx), "agent-shutdown"));
    String reason = agent.terminated().await();
    LOG.error("stopped: {}", reason);
    return REFUSED;
  }

  /**
   * On SIGTERM: stop the loops and close Vert.x, bounded, so a call in flight (a long poll) never
   * holds the exit; running instances stay up for the next start to adopt.
   */
  private static void stop(HostAgent agent, Vertx vertx) {
    try {
      agent.stop().timeout(STOP_SECONDS, TimeUnit.SECONDS).eventually(vertx::close)
          .toCompletionStage().toCompletableFuture().get(2 * STOP_SECONDS, TimeUnit.SECONDS);
    } catch (Exception e) {
      LOG.warn("stopping took longer than {} s; exiting anyway ({})", 2 * STOP_SECONDS, e.toString());
    }
  }

  /** Parses FIRST-LAST with a message picocli prints as a usage error. */
  static final class PortRangeConverter implements CommandLine.ITypeConverter<PortRange> {
    @Override
    public PortRange convert(String value) {
      try {
        return PortRange.parse(value);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.TypeConversionException(e.getMessage());
      }
    }
  }

  /** The jar's version for {@code --version}. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"gpu-host-agent " + HostAgent.version()};
    }
  }
}
