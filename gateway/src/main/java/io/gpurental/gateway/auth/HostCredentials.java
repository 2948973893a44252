package io.gpurental.gateway.auth;

import io.vertx.core.Future;
import java.util.Optional;

/**
 * The port through which auth recognises host agents: the fleet owns host credentials and
 * implements it. Auth knows only that a {@code gpr_host_…} secret names a host, or nothing.
 */
public interface HostCredentials {
  /** The host whose live (unrevoked) credential this secret is. */
  Future<Optional<String>> hostOf(String secret);
}
