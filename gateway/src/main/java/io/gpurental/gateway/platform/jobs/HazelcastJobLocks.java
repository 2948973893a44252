package io.gpurental.gateway.platform.jobs;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Job locks in a Hazelcast map. Hazelcast calls block, and a Hazelcast lock belongs to the thread
 * that took it, so each job's lock is taken and freed on a worker thread of its own and the unlock
 * is checked against its owner. A node frozen during a run lost the lock when the others dropped
 * it, and one of them may hold it now: the frozen node's late unlock fails and leaves their lock
 * alone, where a force-unlock freed it under their run.
 */
final class HazelcastJobLocks implements JobLocks {
  private static final Logger LOG = LoggerFactory.getLogger(HazelcastJobLocks.class);
  private final Vertx vertx;
  private final IMap<String, Boolean> locks;
  private final Map<String, WorkerExecutor> threads = new ConcurrentHashMap<>();

  HazelcastJobLocks(Vertx vertx, HazelcastInstance hazelcast) {
    this.vertx = vertx;
    this.locks = hazelcast.getMap("gateway.job-locks");
  }

  @Override
  public Future<Boolean> tryLock(String name) {
    return threadOf(name).executeBlocking(() -> locks.tryLock(name, 10, TimeUnit.MILLISECONDS));
  }

  @Override
  public Future<Void> unlock(String name) {
    return threadOf(name).executeBlocking(() -> {
      try {
        locks.unlock(name);
      } catch (IllegalMonitorStateException lost) {
        LOG.warn("The lock of {} was no longer this node's when its run ended (the cluster dropped this node"
            + " meanwhile); it is left to its new owner", name);
      }
      return null;
    });
  }

  private WorkerExecutor threadOf(String name) {
    return threads.computeIfAbsent(name, n -> vertx.createSharedWorkerExecutor("gateway-job-lock-" + n, 1));
  }
}
