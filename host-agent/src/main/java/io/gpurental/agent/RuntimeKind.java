package io.gpurental.agent;

/** Where the agent runs instances. */
public enum RuntimeKind {
  /** A Unix user and its own sshd per instance (needs root). */
  PROCESS,
  /** A container per instance, through Docker and the NVIDIA container toolkit. */
  DOCKER,
  /** No processes at all: the sandbox's demo fleet and tests. */
  SIMULATED
}
