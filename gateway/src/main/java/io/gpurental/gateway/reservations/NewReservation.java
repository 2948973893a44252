package io.gpurental.gateway.reservations;

import io.gpurental.gateway.pricing.Quote;
import io.vertx.core.json.JsonObject;
import java.time.OffsetDateTime;
import java.util.List;

/** A reservation about to be written, with the GPUs picked for it. */
record NewReservation(String id, String accountId, String offerId, String hostId, int gpuCount,
    OffsetDateTime start, OffsetDateTime end, OffsetDateTime holdExpiresAt, String quoteId, JsonObject price,
    long total, String currency, SshPublicKey ssh, String paymentMethod, List<String> gpuIds, Quote.Image image) {}
