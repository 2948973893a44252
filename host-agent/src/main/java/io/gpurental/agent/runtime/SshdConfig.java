package io.gpurental.agent.runtime;

import java.nio.file.Path;

/** The per-instance sshd configuration: one user, keys only, the instance's GPUs in the environment. */
final class SshdConfig {
  private SshdConfig() {
  }

  static String render(Path dir, String listenAddress, int port, String user, String gpuUuids) {
    return String.join("\n",
        "# written by gpu-host-agent for one instance; removed with it",
        "Port " + port,
        "ListenAddress " + listenAddress,
        "HostKey " + dir.resolve("host_key"),
        "PidFile " + dir.resolve("sshd.pid"),
        "AllowUsers " + user,
        "PermitRootLogin no",
        "PubkeyAuthentication yes",
        "AuthorizedKeysFile .ssh/authorized_keys",
        "PasswordAuthentication no",
        "KbdInteractiveAuthentication no",
        // PAM would refuse the password-less account; keys alone decide
        "UsePAM no",
        "X11Forwarding no",
        "PrintMotd no",
        "SetEnv CUDA_VISIBLE_DEVICES=" + gpuUuids + " NVIDIA_VISIBLE_DEVICES=" + gpuUuids,
        "Subsystem sftp internal-sftp",
        "");
  }
}
