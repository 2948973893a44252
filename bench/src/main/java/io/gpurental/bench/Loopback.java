package io.gpurental.bench;

import java.net.URI;

/** The one guard of every load target: benchmarks hit this machine's loopback, nothing else. */
public final class Loopback {
  public static final String HOST = "127.0.0.1";

  private Loopback() {}

  /** The URI, if it is an http URI on 127.0.0.1; anything else is refused. */
  public static URI require(URI target) {
    if (!"http".equals(target.getScheme()) || !HOST.equals(target.getHost()) || target.getPort() <= 0) {
      throw new IllegalArgumentException("load tests target http://127.0.0.1:<port> only, not " + target);
    }
    return target;
  }
}
