package io.gpurental.gateway.operator.alerts;

import io.vertx.core.Future;

/** A way of telling the operator: sends one notification and says how it went (never fails the future). */
interface Channel {
  String WEBHOOK = "webhook";
  String EMAIL = "email";

  String name();

  Future<Outcome> send(Notification notification);

  /** Releases what the channel holds (connections). */
  default Future<Void> close() {
    return Future.succeededFuture();
  }
}
