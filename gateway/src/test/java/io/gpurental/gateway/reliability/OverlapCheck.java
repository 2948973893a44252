package io.gpurental.gateway.reliability;

/**
 * The one check of the promise "no GPU is booked twice": pairs of distinct active rows of
 * reservation_gpus that hold the same GPU for overlapping time. It must be able to fail
 * ({@code OverlapCheckCanFailTest}), or a zero from it proves nothing.
 */
public final class OverlapCheck {
  public static final String OVERLAPPING_PAIRS = """
      SELECT count(*) FROM reservation_gpus x JOIN reservation_gpus y
        ON x.gpu_id = y.gpu_id AND x.ctid < y.ctid AND x.period && y.period
      WHERE x.active AND y.active""";

  private OverlapCheck() {}

  public static long overlappingPairs(GatewayCluster cluster) {
    return cluster.count(OVERLAPPING_PAIRS);
  }
}
