package io.gpurental.gateway.fleet;

/** A container port an instance publishes besides SSH, and the host port it is reachable on. */
public record PublishedPort(int containerPort, int hostPort) {}
