package io.gpurental.gateway.pricing;

import io.gpurental.gateway.platform.errors.Invalid;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.List;

/** A booking window: a start and a whole number of hours. */
public record Window(Instant start, int hours) {
  /** Clock skew tolerated for a start "now" sent by a client. */
  private static final Duration PAST_TOLERANCE = Duration.ofMinutes(5);

  public Instant end() {
    return start.plus(Duration.ofHours(hours));
  }

  public OffsetDateTime startUtc() {
    return start.atOffset(ZoneOffset.UTC);
  }

  public OffsetDateTime endUtc() {
    return end().atOffset(ZoneOffset.UTC);
  }

  /**
   * Parses {@code start} (RFC 3339; absent = now, to the minute) and {@code hours}; 400 naming the
   * field when the start is malformed or in the past, or the hours are outside 1..max.
   */
  public static Window parse(String start, Integer hours, int maxHours, String pointerPrefix) {
    Instant now = Instant.now();
    Instant begin;
    if (start == null) {
      begin = now.truncatedTo(ChronoUnit.MINUTES);
    } else {
      try {
        begin = OffsetDateTime.parse(start).toInstant();
      } catch (DateTimeParseException e) {
        throw invalid(pointerPrefix + "start", "start is not an RFC 3339 date-time", "use e.g. 2026-12-01T09:00:00Z");
      }
      if (begin.isBefore(now.minus(PAST_TOLERANCE))) {
        throw invalid(pointerPrefix + "start", "start is in the past", "must be now or later");
      }
      if (begin.isAfter(now.plus(Duration.ofDays(366)))) {
        throw invalid(pointerPrefix + "start", "start is more than a year ahead", "must be within a year");
      }
    }
    int length = hours == null ? 1 : hours;
    if (length < 1 || length > maxHours) {
      throw invalid(pointerPrefix + "hours", "hours must be between 1 and " + maxHours, "got " + length);
    }
    return new Window(begin, length);
  }

  private static Invalid invalid(String pointer, String detail, String fieldDetail) {
    return new Invalid(detail, List.of(new Invalid.FieldError(pointer, fieldDetail)));
  }
}
