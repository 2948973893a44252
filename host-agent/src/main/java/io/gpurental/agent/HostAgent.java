package io.gpurental.agent;

import io.gpurental.agent.runtime.InstanceFailure;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;

/**
 * A running host agent. {@code java -jar gpu-host-agent.jar} starts one through {@link Main}; the
 * gateway's sandbox and tests embed agents in their own Vert.x instance:
 * <pre>{@code
 * HostAgent agent = HostAgent.start(vertx, new AgentOptions(url, dir)
 *     .enrollmentToken(token).runtime(RuntimeKind.SIMULATED)).await();
 * }</pre>
 * Each agent runs as its own verticle (one event loop, no shared state between agents).
 */
public final class HostAgent {
  private final Vertx vertx;
  private final AgentVerticle verticle;
  private final String deploymentId;

  private HostAgent(Vertx vertx, AgentVerticle verticle, String deploymentId) {
    this.vertx = vertx;
    this.verticle = verticle;
    this.deploymentId = deploymentId;
  }

  /** Enrols (first start) or reads the saved credential, adopts running instances, starts the loops. */
  public static Future<HostAgent> start(Vertx vertx, AgentOptions options) {
    AgentVerticle verticle = new AgentVerticle(options);
    return vertx.deployVerticle(verticle).map(id -> new HostAgent(vertx, verticle, id));
  }

  /** Stops the loops; instances keep running (a later start adopts them). */
  public Future<Void> stop() {
    return vertx.undeploy(deploymentId);
  }

  /** Completes with a reason when the agent stopped itself because the gateway refused its credential. */
  public Future<String> terminated() {
    return verticle.terminated();
  }

  /**
   * Makes one running instance fail: it is removed and reported {@code failed} with the reason
   * (one of the protocol's reasons). The sandbox uses it to let a simulated host fail an instance.
   * Completes with whether this agent was running that instance.
   */
  public Future<Boolean> fail(String instanceId, String reason) {
    if (!InstanceFailure.REASONS.contains(reason)) {
      throw new IllegalArgumentException("not a protocol failure reason: " + reason);
    }
    Promise<Boolean> failed = Promise.promise();
    verticle.agentContext().runOnContext(v -> failed.complete(verticle.reconciler().fail(instanceId, reason)));
    return failed.future();
  }

  /** The agent's version, as reported to the gateway. */
  public static String version() {
    return AgentVerticle.VERSION;
  }
}
