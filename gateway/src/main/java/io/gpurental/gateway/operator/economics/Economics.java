package io.gpurental.gateway.operator.economics;

import io.gpurental.gateway.operator.economics.EconomicsCalculator.Figures;
import io.gpurental.gateway.operator.economics.EconomicsCalculator.Totals;
import io.gpurental.gateway.operator.economics.EconomicsRepository.HostRow;
import io.gpurental.gateway.platform.errors.Invalid;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** The operator's economics over a range: per host, then summed into the groups asked for. */
public final class Economics {
  /** The longest range: the telemetry roll-ups are kept 400 days. */
  static final Duration MAX_RANGE = Duration.ofDays(400);
  private final Pool pool;
  private final String currency;

  public Economics(Pool pool, String currency) {
    this.pool = pool;
    this.currency = currency;
  }

  /** How hosts are grouped. */
  enum GroupBy {
    FLEET(h -> "fleet", h -> "Fleet"), SITE(HostRow::siteId, HostRow::siteName), HOST(HostRow::hostId,
        HostRow::hostName), GPU_MODEL(h -> h.gpuModel() == null ? "unknown" : h.gpuModel(),
        h -> h.gpuModel() == null ? "unknown" : h.gpuModel());

    final Function<HostRow, String> key;
    final Function<HostRow, String> label;

    GroupBy(Function<HostRow, String> key, Function<HostRow, String> label) {
      this.key = key;
      this.label = label;
    }
  }

  /** A validated range of whole UTC hours. */
  record Range(OffsetDateTime from, OffsetDateTime to) {
    double hours() {
      return Duration.between(from, to).toHours();
    }
  }

  /** One group's figures, and its hosts (for a host group: the one host). */
  record Group(String key, String label, Figures figures, List<HostRow> hosts) {}

  /** The answer: the range, its groups and a daily series of the whole fleet. */
  record Report(Range range, String currency, String groupBy, List<Group> groups,
      List<EconomicsRepository.Day> series) {}

  Future<Report> report(Range range, GroupBy groupBy) {
    Future<List<HostRow>> hosts = EconomicsRepository.hosts(pool, range.from(), range.to());
    Future<Map<String, Totals>> toDate = toDate(range);
    Future<List<EconomicsRepository.Day>> series = EconomicsRepository.series(pool, range.from(), range.to());
    return Future.all(hosts, toDate, series).map(all -> new Report(range, currency,
        groupBy.name().toLowerCase(java.util.Locale.ROOT), groups(hosts.result(), toDate.result(), groupBy),
        series.result()));
  }

  /** Per-host figures of the range only (for suggestions). */
  Future<List<Group>> perHost(Range range) {
    return EconomicsRepository.hosts(pool, range.from(), range.to())
        .map(hosts -> groups(hosts, null, GroupBy.HOST));
  }

  /**
   * Each host's totals from the hour its offer opened to the range's end (read from the hour the
   * first offer opened; each host counts from its own opening). A host without an offer has no
   * joining time: it is left out, and {@link #groups} takes its range's totals instead.
   */
  private Future<Map<String, Totals>> toDate(Range range) {
    return EconomicsRepository.firstOpened(pool)
        .map(first -> first == null || first.isAfter(range.from()) ? range.from() : first.truncatedTo(ChronoUnit.HOURS))
        .compose(since -> EconomicsRepository.hosts(pool, since, range.to()))
        .map(hosts -> {
          Map<String, Totals> totals = new LinkedHashMap<>();
          hosts.stream().filter(h -> h.offerId() != null).forEach(h -> totals.put(h.hostId(), totals(h)));
          return totals;
        });
  }

  Future<List<EconomicsRepository.Reference>> references() {
    return EconomicsRepository.references(pool);
  }

  String currency() {
    return currency;
  }

  /** The hosts summed per group; {@code toDate}: each host's totals since it joined (null: not computed). */
  static List<Group> groups(List<HostRow> hosts, Map<String, Totals> toDate, GroupBy groupBy) {
    Map<String, List<HostRow>> byKey = new LinkedHashMap<>();
    if (groupBy == GroupBy.FLEET) {
      byKey.put("fleet", new ArrayList<>());
    }
    hosts.forEach(h -> byKey.computeIfAbsent(groupBy.key.apply(h), k -> new ArrayList<>()).add(h));
    List<Group> groups = new ArrayList<>();
    byKey.forEach((key, members) -> {
      Totals totals = Totals.ZERO;
      Totals sinceJoined = toDate == null ? null : Totals.ZERO;
      for (HostRow h : members) {
        totals = totals.plus(totals(h));
        sinceJoined = toDate == null ? null : sinceJoined.plus(toDate.getOrDefault(h.hostId(), totals(h)));
      }
      String label = members.isEmpty() ? "Fleet" : groupBy.label.apply(members.get(0));
      groups.add(new Group(key, label, EconomicsCalculator.figures(totals, sinceJoined), members));
    });
    return groups;
  }

  private static Totals totals(HostRow h) {
    return EconomicsCalculator.host(h.facts(), h.costs());
  }

  /** The range from the query: whole UTC hours, from before to, at most 400 days; 400 otherwise. */
  static Range range(String from, String to, Duration defaultLength) {
    OffsetDateTime end = to == null ? OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.HOURS).plusHours(1)
        : wholeHour("to", to);
    OffsetDateTime start = from == null ? end.minus(defaultLength) : wholeHour("from", from);
    if (!start.isBefore(end)) {
      throw new Invalid("from must be before to.", List.of(new Invalid.FieldError("#/from", "not before to")));
    }
    if (Duration.between(start, end).compareTo(MAX_RANGE) > 0) {
      throw new Invalid("The range is at most 400 days (the telemetry roll-ups are kept that long).",
          List.of(new Invalid.FieldError("#/to", "more than 400 days after from")));
    }
    return new Range(start, end);
  }

  /** The RFC 3339 time {@code value} of field {@code name} in UTC; 400 unless it is a whole hour. */
  static OffsetDateTime wholeHour(String name, String value) {
    OffsetDateTime at;
    try {
      at = OffsetDateTime.parse(value).withOffsetSameInstant(ZoneOffset.UTC);
    } catch (DateTimeParseException e) {
      throw new Invalid(name + " must be an RFC 3339 time, e.g. 2026-11-01T00:00:00Z.",
          List.of(new Invalid.FieldError("#/" + name, "not an RFC 3339 time")));
    }
    if (!at.equals(at.truncatedTo(ChronoUnit.HOURS))) {
      throw new Invalid(name + " must be a whole hour (telemetry and costs are hourly), e.g. "
          + at.truncatedTo(ChronoUnit.HOURS) + ".", List.of(new Invalid.FieldError("#/" + name, "not a whole hour")));
    }
    return at;
  }

  /** 400 for an unknown grouping. */
  static GroupBy groupBy(String value) {
    if (value == null) {
      return GroupBy.FLEET;
    }
    try {
      return GroupBy.valueOf(value.toUpperCase(java.util.Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new Invalid("group_by is one of fleet, site, host, gpu_model.",
          List.of(new Invalid.FieldError("#/group_by", "unknown grouping")));
    }
  }
}
