package io.gpurental.agent.facts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.agent.runtime.Commands;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Parsing on recorded real nvidia-smi outputs (see src/test/resources/nvidia-smi/SOURCES.md). */
class NvidiaSmiParsingTest {
  static final Path FIXTURES = Path.of("src/test/resources/nvidia-smi").toAbsolutePath();

  @Test
  void h100WithUnits() throws IOException {
    GpuReading gpu = onlyGpu(recordedWithHeader("h100-590.48.01.query-gpu.csv"));
    assertEquals(0, gpu.index());
    assertEquals("GPU-00000000-0000-0000-0000-000000000000", gpu.uuid());
    assertEquals("NVIDIA H100 80GB HBM3", gpu.name());
    assertEquals(41L, gpu.temperatureC());
    assertEquals(69.85, gpu.powerDrawW());
    assertEquals(0L, gpu.utilizationPct());
    assertEquals(0L, gpu.memoryUsedMib());
    assertEquals(81559L, gpu.memoryTotalMib());
    assertEquals(0L, gpu.eccUncorrected());
  }

  @Test
  void migUtilizationIsNotAvailable() throws IOException {
    GpuReading gpu = onlyGpu(recordedWithHeader("h100-mig-590.48.01.query-gpu.csv"));
    assertNull(gpu.utilizationPct());
    assertEquals(59L, gpu.memoryUsedMib());
    assertEquals(71.15, gpu.powerDrawW());
  }

  @Test
  void l40sAndGeforceWithoutEcc() throws IOException {
    GpuReading l40s = onlyGpu(recordedWithHeader("l40s-595.80.query-gpu.csv"));
    assertEquals("NVIDIA L40S", l40s.name());
    assertEquals(100L, l40s.utilizationPct());
    assertEquals(46068L, l40s.memoryTotalMib());
    assertEquals(144.97, l40s.powerDrawW());
    GpuReading geforce = onlyGpu(recordedWithHeader("rtx2080super-610.57.04.query-gpu.csv"));
    assertEquals("NVIDIA GeForce RTX 2080 SUPER", geforce.name());
    assertNull(geforce.eccUncorrected());
    assertEquals(33L, geforce.temperatureC());
  }

  /** The agent's own query, cut out of the recording (with units, as --format=csv,noheader prints). */
  @Test
  void agentQueryOnRecordedValues() throws IOException {
    Recorded h100 = recorded("h100-590.48.01.query-gpu.csv");
    String agentShaped = h100.rows().stream()
        .map(row -> GpuReading.QUERY_FIELDS.stream().map(f -> row[h100.fields().indexOf(f)])
            .collect(Collectors.joining(", ")))
        .collect(Collectors.joining("\n"));
    List<Map<String, String>> rows = NvidiaCsv.parse(GpuReading.QUERY_FIELDS, agentShaped);
    assertEquals(GpuReading.QUERY_FIELDS, List.copyOf(rows.get(0).keySet()));
    assertEquals(onlyGpu(recordedWithHeader("h100-590.48.01.query-gpu.csv")), GpuReading.from(rows.get(0)));
  }

  @Test
  void noUnitsWithNotAvailableAndNotSupported() throws IOException {
    List<String> fields = List.of("memory.total", "memory.free", "memory.used", "temperature.gpu", "fan.speed",
        "utilization.gpu", "utilization.memory");
    List<Map<String, String>> rows = NvidiaCsv.parse(fields, body("i3pystatus-776.nounits.csv"));
    assertEquals(2, rows.size());
    for (Map<String, String> row : rows) {
      assertNull(row.get("fan.speed"));
      GpuReading gpu = GpuReading.from(row);
      assertEquals(44L, gpu.temperatureC());
      assertEquals(2004L, gpu.memoryTotalMib());
      assertEquals(0L, gpu.utilizationPct());
    }
  }

  @Test
  void olderDriverWithBareNotAvailableAndGpuUuidAlias() throws IOException {
    List<String> fields = List.of("power.limit", "power.min_limit", "power.max_limit", "memory.total",
        "vbios_version", "driver_version", "name", "gpu_uuid", "power.draw", "temperature.gpu",
        "temperature.memory", "clocks.current.graphics", "clocks.sm", "clocks.mem", "utilization.gpu",
        "utilization.memory", "fan.speed", "pcie.link.width.current", "pstate");
    Map<String, String> row = NvidiaCsv.parse(fields, body("gpu-utils-83-440.64.nounits.csv")).get(0);
    assertNull(row.get("temperature.memory"));
    GpuReading gpu = GpuReading.from(row);
    assertEquals("GeForce RTX 2080", gpu.name());
    assertEquals("GPU-22b2c6ac-2d49-4863-197c-9c469071178a", gpu.uuid());
    assertEquals(176.98, gpu.powerDrawW());
    assertEquals(45L, gpu.temperatureC());
    assertEquals(86L, gpu.utilizationPct());
    assertEquals(7979L, gpu.memoryTotalMib());
  }

  @Test
  void refusesLinesThatDoNotMatchTheQuery() {
    assertThrows(IllegalArgumentException.class,
        () -> NvidiaCsv.parse(GpuReading.QUERY_FIELDS, "0, GPU-1, NVIDIA H100 80GB HBM3, 41"));
  }

  @Test
  void driverAndCudaVersionsFromTheSummaryTable() throws IOException {
    assertEquals(new NvidiaSmi.Versions("590.48.01", "13.1"),
        NvidiaSmi.Versions.parse(Files.readString(FIXTURES.resolve("h100-590.48.01.nvidia-smi.txt"))));
    assertEquals(new NvidiaSmi.Versions("535.86.10", "12.2"),
        NvidiaSmi.Versions.parse(Files.readString(FIXTURES.resolve("dexbotic-41-535.86.10.nvidia-smi.txt"))));
    assertEquals(new NvidiaSmi.Versions("430.14", null),
        NvidiaSmi.Versions.parse(Files.readString(FIXTURES.resolve("telegraf-6258-430.14.nvidia-smi.txt"))));
    assertEquals(new NvidiaSmi.Versions("595.80", "13.2"),
        NvidiaSmi.Versions.parse(Files.readString(FIXTURES.resolve("l40s-595.80.nvidia-smi.txt"))));
  }

  @Test
  void remappedRowsFailureInBothStyles() {
    assertTrue(NvidiaCsv.flag("Yes"));
    assertTrue(NvidiaCsv.flag("1"));
    assertFalse(NvidiaCsv.flag("No"));
    assertFalse(NvidiaCsv.flag("0"));
    assertNull(NvidiaCsv.flag(NvidiaCsv.present("[N/A]")));
  }

  @Test
  void theStandInThroughTheRealCommandRunner() {
    NvidiaSmi smi = new NvidiaSmi(FIXTURES.resolve("standin-2gpu").toString(), Commands.system());
    List<GpuReading> gpus = smi.gpus();
    assertEquals(2, gpus.size());
    assertEquals("GPU-5f3c1a2b-7d1e-4c2a-9b1f-0a1b2c3d4e02", gpus.get(1).uuid());
    assertNull(gpus.get(1).utilizationPct());
    assertFalse(gpus.get(0).remappedRowsFailure());
    assertTrue(gpus.get(1).remappedRowsFailure());
    assertEquals("590.48.01", smi.versions().driver());
  }

  @Test
  void noNvidiaSmiMeansZeroGpus() {
    NvidiaSmi smi = new NvidiaSmi("/nonexistent/nvidia-smi", Commands.system());
    assertEquals(List.of(), smi.gpus());
    assertEquals(new NvidiaSmi.Versions(null, null), smi.versions());
  }

  @Test
  void procFiles() {
    String cpuinfo = "processor\t: 0\nmodel name\t: AMD EPYC 9354 32-Core Processor\n\nprocessor\t: 1\n"
        + "model name\t: AMD EPYC 9354 32-Core Processor\n";
    assertEquals("AMD EPYC 9354 32-Core Processor", HostFacts.cpuModel(cpuinfo));
    assertEquals(2, HostFacts.cpuCores(cpuinfo));
    assertEquals(512L, HostFacts.ramGb("MemTotal:       536870912 kB\nMemFree: 1 kB\n"));
    assertEquals(0.42, Telemetry.load1m("0.42 0.30 0.25 1/123 4567\n"));
  }

  /** A recording with its header line: field names without the " [unit]" nvidia-smi adds. */
  record Recorded(List<String> fields, List<String[]> rows) {
  }

  static Recorded recorded(String file) throws IOException {
    List<String> lines = Files.readAllLines(FIXTURES.resolve(file)).stream()
        .filter(l -> !l.startsWith("#") && !l.isBlank()).toList();
    List<String> fields = Arrays.stream(lines.get(0).split(","))
        .map(f -> f.strip().replaceAll(" \\[.*]$", "")).toList();
    List<String[]> rows = new ArrayList<>();
    for (String line : lines.subList(1, lines.size())) {
      rows.add(Arrays.stream(line.split(",", -1)).map(String::strip).toArray(String[]::new));
    }
    return new Recorded(fields, rows);
  }

  static List<Map<String, String>> recordedWithHeader(String file) throws IOException {
    Recorded r = recorded(file);
    String body = r.rows().stream().map(cells -> String.join(", ", cells)).collect(Collectors.joining("\n"));
    return NvidiaCsv.parse(r.fields(), body);
  }

  static String body(String file) throws IOException {
    return Files.readAllLines(FIXTURES.resolve(file)).stream().filter(l -> !l.startsWith("#"))
        .collect(Collectors.joining("\n"));
  }

  static GpuReading onlyGpu(List<Map<String, String>> rows) {
    assertEquals(1, rows.size());
    return GpuReading.from(rows.get(0));
  }
}
