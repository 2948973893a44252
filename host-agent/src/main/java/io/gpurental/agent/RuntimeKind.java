package io.gpurental.agent;

/** Where the agent runs instances. */
public enum RuntimeKind {
  /** A Unix user and its own sshd per instance (needs root). */
  PROCESS,
  /**
   * A container per instance of the renter's image, through the Docker Engine API (Docker or
   * Podman), GPUs by CDI name: the runtime for hosts shared by renters.
   */
  CONTAINER,
  /** No processes at all: the sandbox's demo fleet and tests. */
  SIMULATED
}
