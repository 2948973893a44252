package io.gpurental.agent.protocol;

import java.util.List;

/**
 * Everything that should run on this host now, at a version of the gateway's choosing; with Fleet
 * III also the templates to keep cached and the cache's size limit (null: none given).
 */
public record DesiredState(long version, List<DesiredInstance> instances, List<String> prePull,
    Long imageCacheLimitGb) {

  public DesiredState(long version, List<DesiredInstance> instances) {
    this(version, instances, List.of(), null);
  }
}
