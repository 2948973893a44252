package io.gpurental.agent.facts;

import io.gpurental.agent.runtime.Commands;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SMART's overall verdict over the machine's disks: {@code smartctl --scan -j}, then {@code
 * smartctl -H -j -d TYPE DEV} for each (blocking, slow: {@link #refresh()} runs on a timer, the
 * heartbeat reads {@link #current()}). {@code failed} when any disk fails its self-assessment,
 * {@code passed} when at least one passes and none fails, null when none could tell (no smartctl,
 * no SMART, no permission).
 */
public final class DiskHealth {
  private static final Logger LOG = LoggerFactory.getLogger(DiskHealth.class);
  public static final String PASSED = "passed";
  public static final String FAILED = "failed";
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final Pattern SCAN_LINE = Pattern.compile("^(/\\S+)\\s+-d\\s+(\\S+)", Pattern.MULTILINE);
  private static final Pattern ATA_RESULT = Pattern.compile("self-assessment test result:\\s*(\\w+)");
  private static final Pattern SCSI_STATUS = Pattern.compile("SMART Health Status:\\s*(\\w+)");

  private final String binary;
  private final Commands commands;
  private volatile String current;

  public DiskHealth(String binary, Commands commands) {
    this.binary = binary;
    this.commands = commands;
  }

  /** The verdict of the last {@link #refresh()}. */
  public String current() {
    return current;
  }

  /** One device as {@code smartctl --scan} lists it. */
  record Device(String name, String type) {
  }

  /** Asks smartctl again (seconds per disk). */
  public synchronized void refresh() {
    if (!Binaries.present(binary)) {
      current = null;
      return;
    }
    List<Boolean> verdicts = new ArrayList<>();
    for (Device device : parseScan(run(List.of(binary, "--scan", "-j")))) {
      verdicts.add(parseHealth(run(List.of(binary, "-H", "-j", "-d", device.type(), device.name()))));
    }
    String verdict = overall(verdicts);
    if (FAILED.equals(verdict) && !FAILED.equals(current)) {
      LOG.error("SMART: a disk of this host fails its health self-assessment (smartctl -H)");
    }
    current = verdict;
  }

  /** smartctl's exit status is a bit mask (a failing disk sets bit 3), so the output decides, not the status. */
  private String run(List<String> argv) {
    try {
      return commands.run(argv, TIMEOUT).out();
    } catch (IOException e) {
      LOG.debug("could not run {}: {}", argv, e.getMessage());
      return "";
    }
  }

  static String overall(List<Boolean> verdicts) {
    if (verdicts.contains(Boolean.FALSE)) {
      return FAILED;
    }
    return verdicts.contains(Boolean.TRUE) ? PASSED : null;
  }

  /** The devices of {@code --scan -j} (or of the text {@code --scan}: "/dev/sda -d sat # …"). */
  static List<Device> parseScan(String out) {
    List<Device> devices = new ArrayList<>();
    JsonObject json = json(out);
    if (json != null) {
      for (Object o : json.getJsonArray("devices", new io.vertx.core.json.JsonArray())) {
        if (o instanceof JsonObject d && d.getValue("name") instanceof String name && d.getValue("type") instanceof String type) {
          devices.add(new Device(name, type));
        }
      }
      return devices;
    }
    Matcher m = SCAN_LINE.matcher(out);
    while (m.find()) {
      devices.add(new Device(m.group(1), m.group(2)));
    }
    return devices;
  }

  /** True passed, false failed, null unknown; from {@code smart_status.passed} or the text verdict. */
  static Boolean parseHealth(String out) {
    JsonObject json = json(out);
    if (json != null) {
      JsonObject status = json.getValue("smart_status") instanceof JsonObject s ? s : null;
      return status != null && status.getValue("passed") instanceof Boolean passed ? passed : null;
    }
    Matcher ata = ATA_RESULT.matcher(out);
    if (ata.find()) {
      return "PASSED".equalsIgnoreCase(ata.group(1));
    }
    Matcher scsi = SCSI_STATUS.matcher(out);
    return scsi.find() ? "OK".equalsIgnoreCase(scsi.group(1)) : null;
  }

  private static JsonObject json(String out) {
    String text = out.strip();
    if (!text.startsWith("{")) {
      return null;
    }
    try {
      return new JsonObject(text);
    } catch (DecodeException e) {
      return null;
    }
  }
}
