package io.gpurental.agent.protocol;

import java.util.List;

/** Everything that should run on this host now, at a version of the gateway's choosing. */
public record DesiredState(long version, List<DesiredInstance> instances) {
}
