package io.gpurental.gateway.reservations;

import io.gpurental.gateway.platform.errors.TooManyRequests;
import java.util.HashMap;
import java.util.Map;

/**
 * Open event streams on this node, per account and in all, capped. Counted in this JVM only, so a
 * node that dies takes its count with it and nothing is left to release; the price is that an
 * account's cap applies per node. Shared by the node's HTTP event loops, hence synchronized
 * (a few map operations, nothing that waits).
 */
final class StreamSlots {
  private static final long RETRY_AFTER_SECONDS = 10;
  private final int perAccount;
  private final int perNode;
  private final Map<String, Integer> byAccount = new HashMap<>();
  private int total;

  StreamSlots(int perAccount, int perNode) {
    this.perAccount = perAccount;
    this.perNode = perNode;
  }

  /** Takes a slot for the account, or fails with 429 when the account or the node is full. */
  synchronized void acquire(String accountId) {
    if (total >= perNode) {
      throw new TooManyRequests("This node serves its maximum of " + perNode + " event streams; retry shortly"
          + " (another node may take you).", RETRY_AFTER_SECONDS);
    }
    if (byAccount.getOrDefault(accountId, 0) >= perAccount) {
      throw new TooManyRequests("Your account already has " + perAccount + " event streams open here; close one"
          + " (one stream carries all your reservations' changes).", RETRY_AFTER_SECONDS);
    }
    byAccount.merge(accountId, 1, Integer::sum);
    total++;
  }

  synchronized void release(String accountId) {
    byAccount.computeIfPresent(accountId, (account, open) -> open > 1 ? open - 1 : null);
    total--;
  }
}
