package io.gpurental.agent.facts;

import io.gpurental.agent.runtime.Commands;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks nvidia-smi about the GPUs (blocking: call it on a worker thread). With no nvidia-smi on the
 * machine the host has zero GPUs, which is logged once and is not an error.
 */
public final class NvidiaSmi {
  private static final Logger LOG = LoggerFactory.getLogger(NvidiaSmi.class);
  private static final Duration TIMEOUT = Duration.ofSeconds(20);
  private static final Pattern DRIVER = Pattern.compile("Driver Version:\\s*([0-9][0-9.]*)");
  private static final Pattern CUDA = Pattern.compile("CUDA Version:\\s*([0-9][0-9.]*)");

  private final String binary;
  private final Commands commands;
  private volatile boolean absenceLogged;

  public NvidiaSmi(String binary, Commands commands) {
    this.binary = binary;
    this.commands = commands;
  }

  /** Driver and CUDA versions from the summary table's header ({@code null} when unknown). */
  public record Versions(String driver, String cuda) {
    public static Versions parse(String summary) {
      return new Versions(first(DRIVER, summary), first(CUDA, summary));
    }

    private static String first(Pattern pattern, String text) {
      Matcher m = pattern.matcher(text);
      return m.find() ? m.group(1) : null;
    }
  }

  public Versions versions() {
    String out = run(List.of());
    return out == null ? new Versions(null, null) : Versions.parse(out);
  }

  /** Every GPU with its current readings, remapped-row failures joined in by UUID. */
  public List<GpuReading> gpus() {
    String out = run(List.of("--query-gpu=" + String.join(",", GpuReading.QUERY_FIELDS),
        "--format=csv,noheader,nounits"));
    if (out == null) {
      return List.of();
    }
    Map<String, Boolean> remapFailures = remappedRowsFailures();
    List<GpuReading> gpus = new ArrayList<>();
    for (Map<String, String> row : NvidiaCsv.parse(GpuReading.QUERY_FIELDS, out)) {
      GpuReading gpu = GpuReading.from(row);
      gpus.add(gpu.withRemappedRowsFailure(remapFailures.get(gpu.uuid())));
    }
    return gpus;
  }

  /** Row remapping exists from Ampere on; older GPUs answer nothing usable, which leaves null. */
  private Map<String, Boolean> remappedRowsFailures() {
    String out = run(List.of("--query-remapped-rows=" + String.join(",", GpuReading.REMAPPED_ROWS_FIELDS),
        "--format=csv,noheader"));
    Map<String, Boolean> failures = new HashMap<>();
    if (out == null) {
      return failures;
    }
    try {
      for (Map<String, String> row : NvidiaCsv.parse(GpuReading.REMAPPED_ROWS_FIELDS, out)) {
        if (row.get("gpu_uuid") != null) {
          failures.put(row.get("gpu_uuid"), NvidiaCsv.flag(row.get("remapped_rows.failure")));
        }
      }
    } catch (IllegalArgumentException e) {
      LOG.debug("nvidia-smi --query-remapped-rows printed something else: {}", e.getMessage());
    }
    return failures;
  }

  /** The command's output, or null when nvidia-smi is missing or fails. */
  private String run(List<String> args) {
    if (!present()) {
      if (!absenceLogged) {
        absenceLogged = true;
        LOG.warn("nvidia-smi not found ({}): this host reports zero GPUs", binary);
      }
      return null;
    }
    List<String> argv = new ArrayList<>();
    argv.add(binary);
    argv.addAll(args);
    try {
      Commands.Result result = commands.run(argv, TIMEOUT);
      if (result.exit() != 0) {
        LOG.warn("{} exited with {}: {}", argv, result.exit(), result.summary());
        return null;
      }
      return result.out();
    } catch (IOException e) {
      LOG.warn("could not run {}: {}", argv, e.getMessage());
      return null;
    }
  }

  private boolean present() {
    return Binaries.present(binary);
  }
}
