package io.gpurental.gateway.operator.economics;

import io.gpurental.gateway.operator.economics.EconomicsCalculator.Figures;
import io.gpurental.gateway.operator.economics.EconomicsCalculator.Totals;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The economics report at the HTTP edge: one list of columns renders both the JSON (dotted names
 * nest, money becomes {@code {"amount", "currency"}}) and the CSV (one row per group, amounts in
 * minor units and a currency column), so the two always say the same.
 */
final class EconomicsJson {
  private EconomicsJson() {}

  /** One figure of a group: its name, whether it is money, and how to read it. */
  record Column(String name, boolean money, Function<Economics.Group, Object> value) {}

  static final List<Column> COLUMNS = List.of(
      col("key", g -> g.key()), col("label", g -> g.label()), col("hosts", g -> t(g).hosts()),
      col("available_gpu_hours", g -> hours(t(g).availableGpuHours())),
      col("booked_gpu_hours", g -> hours(t(g).bookedGpuHours())),
      col("utilization_bps", g -> f(g).utilizationBps()), money("list_price", g -> f(g).listPrice()),
      money("effective_rate", g -> f(g).effectiveRate()), money("revenue", g -> t(g).revenue()),
      money("refunds", g -> t(g).refunds()), money("credits", g -> t(g).credits()),
      money("refunds_and_credits", g -> t(g).refunds() + t(g).credits()), money("card_fees", g -> t(g).cardFees()),
      col("payments_without_fee", g -> t(g).paymentsWithoutFee()),
      col("energy.it_kwh", g -> kwh(t(g).itKwh())), col("energy.facility_kwh", g -> kwh(t(g).facilityKwh())),
      money("energy.cost", g -> t(g).energyCost()), col("energy.covered_hours", g -> hours(t(g).coveredHours())),
      col("energy.missing_hours", g -> hours(t(g).missingHours())), money("other_costs", g -> t(g).otherCosts()),
      money("depreciation", g -> t(g).depreciation()), money("net_margin", g -> f(g).netMargin()),
      col("margin_bps", g -> f(g).marginBps()),
      col("break_even_utilization_bps", g -> f(g).breakEvenUtilizationBps()),
      money("payback.purchase_price", g -> t(g).purchasePrice()),
      money("payback.contribution", g -> f(g).payback().contribution()),
      col("payback.progress_bps", g -> f(g).payback().progressBps()),
      money("payback.contribution_to_date", g -> f(g).payback().contributionToDate()),
      col("payback.progress_to_date_bps", g -> f(g).payback().progressToDateBps()),
      col("payback.months_to_payback", g -> f(g).payback().monthsToPayback() == null ? null
          : f(g).payback().monthsToPayback().doubleValue()),
      col("hosts_without_costs", g -> t(g).hostsWithoutCosts()), col("notes", EconomicsJson::notes));

  static JsonObject report(Economics.Report report) {
    JsonArray groups = new JsonArray();
    report.groups().forEach(g -> groups.add(group(g, report.currency())));
    JsonArray series = new JsonArray();
    report.series().forEach(day -> series.add(new JsonObject().put("start", day.start().toInstant().toString())
        .put("available_gpu_hours", hours(day.availableGpuHours())).put("booked_gpu_hours", hours(day.bookedGpuHours()))
        .put("utilization_bps", day.availableGpuHours().signum() == 0 ? null : day.bookedGpuHours()
            .multiply(BigDecimal.valueOf(10_000)).divide(day.availableGpuHours(), 0, RoundingMode.HALF_UP).intValue())
        .put("net_revenue", new JsonObject().put("amount", day.netRevenue()).put("currency", report.currency()))));
    return new JsonObject().put("from", report.range().from().toInstant().toString())
        .put("to", report.range().to().toInstant().toString()).put("range_hours", report.range().hours())
        .put("currency", report.currency()).put("group_by", report.groupBy()).put("data", groups)
        .putNull("next_cursor").put("series", series);
  }

  static JsonObject group(Economics.Group g, String currency) {
    JsonObject json = new JsonObject();
    for (Column column : COLUMNS) {
      Object value = column.value().apply(g);
      if (column.money() && value != null) {
        value = new JsonObject().put("amount", value).put("currency", currency);
      }
      String[] path = column.name().split("\\.");
      JsonObject parent = json;
      for (int i = 0; i < path.length - 1; i++) {
        if (!parent.containsKey(path[i])) {
          parent.put(path[i], new JsonObject());
        }
        parent = parent.getJsonObject(path[i]);
      }
      parent.put(path[path.length - 1], value instanceof List<?> list ? new JsonArray(new ArrayList<>(list)) : value);
    }
    return json;
  }

  /** RFC 4180 CSV: a header of the column names plus currency, one row per group. */
  static String csv(Economics.Report report) {
    StringBuilder out = new StringBuilder();
    List<String> header = new ArrayList<>(COLUMNS.stream().map(Column::name).toList());
    header.add("currency");
    out.append(String.join(",", header)).append("\r\n");
    for (Economics.Group g : report.groups()) {
      List<String> cells = new ArrayList<>();
      for (Column column : COLUMNS) {
        Object value = column.value().apply(g);
        String text = value instanceof List<?> list ? String.join("; ", list.stream().map(String::valueOf).toList())
            : value == null ? "" : value.toString();
        cells.add(cell(value instanceof Number ? text : neutralised(text)));
      }
      cells.add(report.currency());
      out.append(String.join(",", cells)).append("\r\n");
    }
    return out.toString();
  }

  /**
   * A text cell (a site, host or model name an operator typed) that a spreadsheet would run as a
   * formula gets a leading apostrophe (OWASP's CSV injection advice); numbers stay numbers.
   */
  static String neutralised(String text) {
    return !text.isEmpty() && "=+-@\t\r".indexOf(text.charAt(0)) >= 0 ? "'" + text : text;
  }

  private static String cell(String value) {
    return value.matches(".*[,\"\r\n].*") ? "\"" + value.replace("\"", "\"\"") + "\"" : value;
  }

  /** What the figures cannot say: missing telemetry, missing costs, fees not known yet. */
  static List<String> notes(Economics.Group g) {
    Totals t = t(g);
    List<String> notes = new ArrayList<>();
    if (t.missingHours().signum() > 0) {
      notes.add("Measured power covers " + hours(t.coveredHours()) + " of " + hours(t.rangeHours().multiply(
          BigDecimal.valueOf(t.hosts()))) + " host-hours; energy for the other " + hours(t.missingHours())
          + " host-hours is unknown and not included.");
    }
    if (t.hostsWithoutCosts() > 0) {
      notes.add(t.hostsWithoutCosts() + " host(s) have no costs entered: their energy cost, other costs and"
          + " depreciation are not included.");
    }
    // at a hundredth of an hour: the segments' and the range's hours are computed apart
    if (t.uncostedHours().compareTo(new BigDecimal("0.01")) >= 0) {
      notes.add(hours(t.uncostedHours()) + " host-hours come before the host's first cost period: their energy cost,"
          + " other costs and depreciation are not included.");
    }
    if (t.paymentsWithoutFee() > 0) {
      notes.add(t.paymentsWithoutFee() + " payment(s) have no card fee from Stripe yet.");
    }
    return notes;
  }

  static Double hours(BigDecimal hours) {
    return hours.setScale(4, RoundingMode.HALF_UP).doubleValue();
  }

  static Double kwh(BigDecimal kwh) {
    return kwh.setScale(3, RoundingMode.HALF_UP).doubleValue();
  }

  private static Totals t(Economics.Group g) {
    return g.figures().totals();
  }

  private static Figures f(Economics.Group g) {
    return g.figures();
  }

  private static Column col(String name, Function<Economics.Group, Object> value) {
    return new Column(name, false, value);
  }

  private static Column money(String name, Function<Economics.Group, Object> value) {
    return new Column(name, true, value);
  }
}
