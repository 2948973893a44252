package io.gpurental.gateway.platform.db;

import io.gpurental.gateway.config.DbConfig;
import io.gpurental.gateway.config.DbLimits;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClientOptions;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.impl.SocketConnectionBase;
import io.vertx.sqlclient.internal.Connection;
import io.vertx.sqlclient.internal.SqlConnectionInternal;
import java.util.concurrent.TimeUnit;

/**
 * The node's reactive PostgreSQL pool, bounded in time everywhere, so that an unreachable or
 * frozen server fails requests within seconds instead of holding them.
 */
public final class DatabasePool {
  public static final String NAME = "gateway-db";
  /** How much longer than a statement may run a connection may stay silent before it is dropped. */
  private static final long SILENCE_MARGIN_MS = 1_000;
  private static final int CLEANER_PERIOD_MS = 250;

  private DatabasePool() {}

  public static Pool create(Vertx vertx, DbConfig db, DatabaseTarget target) {
    DbLimits limits = db.limits();
    long statementMs = limits.statementTimeout().toMillis();
    PgConnectOptions connect = target.connectOptions()
        .addProperty("statement_timeout", Long.toString(statementMs))
        // Measured on the catalog's search (docs/benchmarks.md, "Catalog at scale"): JIT compiled
        // millisecond queries for seconds; after five runs the plan cache switched prepared
        // statements to generic plans that cannot drop the filters a search leaves NULL (10x to
        // over 10 s at 1,000 hosts); parallel workers cost more to start than these queries take.
        // The paged search no longer needs custom plans, but without them on every connection the
        // scale run's hold + release fell from 25 to 2 per second and quotes from 193 to 78 (part 4):
        // some statement of theirs still does, not found yet.
        .addProperty("jit", "off")
        .addProperty("plan_cache_mode", "force_custom_plan")
        .addProperty("max_parallel_workers_per_gather", "0");
    // An idle connection is retired by the pool before it has been silent for too long (below),
    // so the pool never hands out a connection that is about to be dropped.
    PoolOptions pool = new PoolOptions()
        .setName(NAME)
        .setMaxSize(db.poolSize())
        .setMaxWaitQueueSize(limits.poolWaitQueueSize())
        .setConnectionTimeout((int) limits.poolWaitTimeout().toMillis())
        .setConnectionTimeoutUnit(TimeUnit.MILLISECONDS)
        .setIdleTimeout((int) statementMs)
        .setIdleTimeoutUnit(TimeUnit.MILLISECONDS)
        .setPoolCleanerPeriod(CLEANER_PERIOD_MS);
    // vertx-pg-client 5.0.7 ignores these (eclipse-vertx/vertx-sql-client#1608); until it honours
    // them a connect that hangs is bounded for requests by the pool wait timeout
    NetClientOptions socket = new NetClientOptions()
        .setConnectTimeout((int) limits.connectTimeout().toMillis());
    long silenceMs = statementMs + SILENCE_MARGIN_MS;
    return PgBuilder.pool().with(pool).with(socket).connectingTo(connect).using(vertx)
        .withConnectHandler(connection -> {
          dropWhenSilent(connection, silenceMs);
          connection.close(); // hands the new connection to the pool
        })
        .build();
  }

  /**
   * A frozen server never answers, so its statement timeout never fires: a connection that reads
   * nothing for longer than any statement may run is closed, which fails its query (503) and lets
   * the pool replace it. Installed per connection because 5.0.7 drops the pool's socket options.
   */
  private static void dropWhenSilent(SqlConnection connection, long silenceMs) {
    Connection raw = ((SqlConnectionInternal) connection).unwrap();
    while (!(raw instanceof SocketConnectionBase) && raw.unwrap() != raw) {
      raw = raw.unwrap();
    }
    if (raw instanceof SocketConnectionBase socket) {
      socket.socket().channelHandlerContext().pipeline()
          .addFirst("silence-limit", new SilenceLimit(silenceMs));
    }
  }

  /**
   * Closes a silent connection from the socket's end of the pipeline. Left to Vert.x, the idle
   * event closes it through the PostgreSQL codec, which only half-closes it (Terminate, then the
   * output side) and waits for the server to close its side: a frozen server never does, so the
   * query on it hung until the server came back (a SIGSTOPped PostgreSQL held requests 25 s and
   * more). A close issued here reaches the socket at once, which fails the query (503).
   */
  private static final class SilenceLimit extends IdleStateHandler {
    SilenceLimit(long silenceMs) {
      super(silenceMs, 0, 0, TimeUnit.MILLISECONDS);
    }

    @Override
    protected void channelIdle(ChannelHandlerContext ctx, IdleStateEvent event) {
      ctx.close();
    }
  }
}
