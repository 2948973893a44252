package io.gpurental.gateway.fleet;

import java.util.List;

/**
 * How a renter reaches a running instance: {@code ssh -p port user@host}, and the instance's own
 * SSH host key as {@code ssh-keygen -l} fingerprints it and as a line for {@code known_hosts},
 * so the first login need not trust an unknown key (both null for simulated hosts); and the
 * container ports it publishes on the same host besides SSH.
 */
public record SshAccess(String user, String host, int port, String hostKeyFingerprint, String knownHosts,
    List<PublishedPort> ports) {}
