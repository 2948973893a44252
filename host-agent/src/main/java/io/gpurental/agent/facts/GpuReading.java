package io.gpurental.agent.facts;

import java.util.List;
import java.util.Map;

/**
 * One GPU as {@code nvidia-smi --query-gpu} reports it; a {@code null} is a value nvidia-smi did
 * not have ({@code [N/A]}, {@code [Not Supported]}).
 */
public record GpuReading(int index, String uuid, String name, Long temperatureC, Double powerDrawW,
    Long utilizationPct, Long memoryUsedMib, Long memoryTotalMib, Long eccUncorrected,
    Boolean remappedRowsFailure) {

  /** The fields the agent asks for, in this order (names as in {@code nvidia-smi --help-query-gpu}). */
  public static final List<String> QUERY_FIELDS = List.of("index", "uuid", "name", "temperature.gpu",
      "power.draw", "utilization.gpu", "memory.used", "memory.total",
      "ecc.errors.uncorrected.volatile.total");

  /** The fields asked of {@code --query-remapped-rows}. */
  public static final List<String> REMAPPED_ROWS_FIELDS = List.of("gpu_uuid", "remapped_rows.failure");

  /** Reads one parsed row; the uuid may be named {@code uuid} or {@code gpu_uuid}. */
  public static GpuReading from(Map<String, String> row) {
    Long index = NvidiaCsv.whole(row.get("index"));
    String uuid = row.get("uuid") != null ? row.get("uuid") : row.get("gpu_uuid");
    return new GpuReading(index == null ? -1 : index.intValue(), uuid, row.get("name"),
        NvidiaCsv.whole(row.get("temperature.gpu")), NvidiaCsv.number(row.get("power.draw")),
        NvidiaCsv.whole(row.get("utilization.gpu")), NvidiaCsv.whole(row.get("memory.used")),
        NvidiaCsv.whole(row.get("memory.total")),
        NvidiaCsv.whole(row.get("ecc.errors.uncorrected.volatile.total")), null);
  }

  public GpuReading withRemappedRowsFailure(Boolean failure) {
    return new GpuReading(index, uuid, name, temperatureC, powerDrawW, utilizationPct, memoryUsedMib,
        memoryTotalMib, eccUncorrected, failure);
  }
}
