package io.gpurental.agent.protocol;

/** How the renter logs in, and the host key that proves it is this instance. */
public record SshEndpoint(String host, int port, String user, String hostKeyFingerprint,
    String hostKey) {
}
