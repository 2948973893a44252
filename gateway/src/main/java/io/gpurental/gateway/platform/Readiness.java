package io.gpurental.gateway.platform;

import java.util.concurrent.atomic.AtomicBoolean;

/** Whether this node should receive traffic; false once shutdown begins so load balancers move on. */
public final class Readiness {
  private final AtomicBoolean draining = new AtomicBoolean();

  public void startDraining() {
    draining.set(true);
  }

  public boolean draining() {
    return draining.get();
  }
}
