package io.gpurental.agent.runtime.container;

import io.gpurental.agent.protocol.DesiredInstance;
import io.gpurental.agent.protocol.InstanceReport.Port;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What one instance's container is, and its create request in the two dialects: Docker Engine's
 * ({@code /containers/create}; GPUs as CDI device requests, Docker 25+) and Podman's own
 * ({@code /libpod/containers/create}), because Podman 4.3's compatible API cannot name a CDI device:
 * {@code HostConfig.Devices} turns {@code nvidia.com/gpu=UUID} into the unresolvable
 * {@code nvidia.com/gpu=UUID::rwm}, and it ignores CDI device requests without a word (checked on
 * this machine). Both say the same: no privileges, every capability dropped but what a root login
 * needs, no-new-privileges, the engine's default seccomp, limits, its own network, IPv6 off.
 */
record ContainerSpec(String name, DesiredInstance instance, Map<String, String> labels, String network,
    String volume, Path bundle, Path keys, int sshPort, List<Port> ports, boolean diskQuota) {

  /** What dropbear and a root shell need (setuid/gid for the session, chown for the pty, port 22). */
  static final List<String> CAPABILITIES = List.of("CHOWN", "DAC_OVERRIDE", "FOWNER", "FSETID", "KILL",
      "SETGID", "SETUID", "NET_BIND_SERVICE");
  static final String WORKSPACE = "/workspace";
  static final long LOG_BYTES = 1024 * 1024;

  JsonObject podman() {
    JsonObject body = new JsonObject().put("name", name).put("image", instance.image().ref())
        .put("entrypoint", new JsonArray(SshBundle.command())).put("command", new JsonArray())
        .put("labels", new JsonObject(Map.copyOf(labels))).put("init", true)
        // a renter can write to PID 1's stdout: the engine's log of it must not fill the host's disk
        .put("log_configuration", new JsonObject().put("driver", "k8s-file").put("size", LOG_BYTES))
        .put("devices", new JsonArray(instance.gpus().stream()
            .map(g -> new JsonObject().put("path", "nvidia.com/gpu=" + g.uuid())).toList()))
        .put("cap_drop", new JsonArray(List.of("ALL"))).put("cap_add", new JsonArray(CAPABILITIES))
        .put("no_new_privileges", true).put("privileged", false)
        .put("userns", new JsonObject().put("nsmode", "auto"))
        .put("idmappings", new JsonObject().put("AutoUserNs", true)
            .put("AutoUserNsOpts", new JsonObject().put("Size", 65536)))
        .put("sysctl", new JsonObject().put("net.ipv6.conf.all.disable_ipv6", "1"))
        .put("netns", new JsonObject().put("nsmode", "bridge"))
        .put("Networks", new JsonObject().put(network, new JsonObject()))
        .put("portmappings", new JsonArray(allPorts().stream().map(p -> new JsonObject()
            .put("container_port", p.containerPort()).put("host_port", p.hostPort()).put("protocol", "tcp")).toList()))
        .put("volumes", new JsonArray().add(new JsonObject().put("Name", volume).put("Dest", WORKSPACE)))
        .put("mounts", new JsonArray(List.of(
            bind(bundle.toString(), SshBundle.MOUNT), bind(keys.toString(), SshBundle.KEYS_MOUNT),
            bind(keys.resolve("authorized_keys").toString(), "/root/.ssh/authorized_keys"),
            bind(keys.resolve(SshBundle.ENV_FILE).toString(), SshBundle.PROFILE_D))))
        .put("resource_limits", podmanLimits());
    Long shm = limits().shmMib();
    if (shm != null) {
      body.put("shm_size", shm * 1024 * 1024);
    }
    if (diskQuota && limits().diskGb() != null) {
      body.put("storage_opts", new JsonObject().put("size", limits().diskGb() + "G"));
    }
    return body;
  }

  JsonObject docker() {
    JsonObject host = new JsonObject().put("Init", true).put("Privileged", false)
        .put("LogConfig", new JsonObject().put("Type", "json-file")
            .put("Config", new JsonObject().put("max-size", Long.toString(LOG_BYTES)).put("max-file", "1")))
        .put("CapDrop", new JsonArray(List.of("ALL"))).put("CapAdd", new JsonArray(CAPABILITIES))
        .put("SecurityOpt", new JsonArray(List.of("no-new-privileges:true")))
        .put("Sysctls", new JsonObject().put("net.ipv6.conf.all.disable_ipv6", "1"))
        .put("NetworkMode", network)
        .put("DeviceRequests", new JsonArray().add(new JsonObject().put("Driver", "cdi")
            .put("DeviceIDs", new JsonArray(instance.gpus().stream().map(g -> "nvidia.com/gpu=" + g.uuid()).toList()))))
        .put("PortBindings", dockerPorts())
        .put("Mounts", new JsonArray(List.of(
            new JsonObject().put("Type", "volume").put("Source", volume).put("Target", WORKSPACE),
            dockerBind(bundle.toString(), SshBundle.MOUNT), dockerBind(keys.toString(), SshBundle.KEYS_MOUNT),
            dockerBind(keys.resolve("authorized_keys").toString(), "/root/.ssh/authorized_keys"),
            dockerBind(keys.resolve(SshBundle.ENV_FILE).toString(), SshBundle.PROFILE_D))));
    DesiredInstance.Limits l = limits();
    if (l.cpus() != null) {
      host.put("NanoCpus", Math.round(l.cpus() * 1e9));
    }
    if (l.memoryMib() != null) {
      host.put("Memory", l.memoryMib() * 1024 * 1024).put("MemorySwap", l.memoryMib() * 1024 * 1024);
    }
    host.put("PidsLimit", l.pids() == null ? DEFAULT_PIDS : l.pids());
    if (l.shmMib() != null) {
      host.put("ShmSize", l.shmMib() * 1024 * 1024);
    }
    if (diskQuota && l.diskGb() != null) {
      host.put("StorageOpt", new JsonObject().put("size", l.diskGb() + "G"));
    }
    JsonObject exposed = new JsonObject();
    allPorts().forEach(p -> exposed.put(p.containerPort() + "/tcp", new JsonObject()));
    return new JsonObject().put("Image", instance.image().ref()).put("Entrypoint", new JsonArray(SshBundle.command()))
        .put("Cmd", new JsonArray())
        .put("Labels", new JsonObject(Map.copyOf(labels)))
        .put("ExposedPorts", exposed).put("HostConfig", host);
  }

  /** A container without a pids limit could fork until the host's table is full. */
  static final long DEFAULT_PIDS = 4096;

  List<Port> allPorts() {
    return java.util.stream.Stream.concat(java.util.stream.Stream.of(new Port(22, sshPort)), ports.stream()).toList();
  }

  private DesiredInstance.Limits limits() {
    return instance.limits() == null ? new DesiredInstance.Limits(null, null, null, null, null) : instance.limits();
  }

  private JsonObject podmanLimits() {
    DesiredInstance.Limits l = limits();
    JsonObject limits = new JsonObject().put("pids", new JsonObject().put("limit", l.pids() == null ? DEFAULT_PIDS : l.pids()));
    if (l.memoryMib() != null) {
      long bytes = l.memoryMib() * 1024 * 1024;
      limits.put("memory", new JsonObject().put("limit", bytes).put("swap", bytes));
    }
    if (l.cpus() != null) {
      limits.put("cpu", new JsonObject().put("period", 100_000).put("quota", Math.round(l.cpus() * 100_000)));
    }
    return limits;
  }

  private JsonObject dockerPorts() {
    JsonObject bindings = new JsonObject();
    allPorts().forEach(p -> bindings.put(p.containerPort() + "/tcp",
        new JsonArray().add(new JsonObject().put("HostPort", Integer.toString(p.hostPort())))));
    return bindings;
  }

  private static JsonObject bind(String source, String target) {
    return new JsonObject().put("type", "bind").put("source", source).put("destination", target)
        .put("options", new JsonArray(List.of("ro", "rbind", "nosuid", "nodev")));
  }

  private static JsonObject dockerBind(String source, String target) {
    return new JsonObject().put("Type", "bind").put("Source", source).put("Target", target).put("ReadOnly", true);
  }
}
