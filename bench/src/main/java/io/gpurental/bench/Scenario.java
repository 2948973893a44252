package io.gpurental.bench;

/**
 * A named stream of requests. {@link #next(long)} is called on the load generator's event loop
 * with the request's sequence number, so a scenario can rotate through hosts or offers.
 */
public interface Scenario {
  String name();

  Request next(long sequence);
}
