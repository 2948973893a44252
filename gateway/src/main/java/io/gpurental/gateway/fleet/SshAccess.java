package io.gpurental.gateway.fleet;

/**
 * How a renter reaches a running instance: {@code ssh -p port user@host}, and the instance's own
 * SSH host key as {@code ssh-keygen -l} fingerprints it and as a line for {@code known_hosts},
 * so the first login need not trust an unknown key. The last two are null for simulated hosts.
 */
public record SshAccess(String user, String host, int port, String hostKeyFingerprint, String knownHosts) {}
