package io.gpurental.gateway.config;

import java.util.List;

/** Hazelcast membership (TCP-IP join only) and the clustered event bus binding. */
public record ClusterConfig(
    String name, String host, int port, int portCount, int eventBusPort, List<String> members) {}
