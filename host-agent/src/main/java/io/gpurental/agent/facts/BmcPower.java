package io.gpurental.agent.facts;

import io.gpurental.agent.runtime.Commands;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's wall power from its BMC: {@code ipmitool dcmi power reading} (blocking, worker
 * threads only). Without ipmitool it asks again only every {@link #REPROBE_MISSING}; a BMC that
 * fails or answers nothing usable is left alone for {@link #AFTER_FAILURE}, so a broken BMC costs
 * a heartbeat at most one short timeout now and then.
 */
public final class BmcPower {
  private static final Logger LOG = LoggerFactory.getLogger(BmcPower.class);
  static final Duration TIMEOUT = Duration.ofSeconds(5);
  static final Duration REPROBE_MISSING = Duration.ofMinutes(30);
  static final Duration AFTER_FAILURE = Duration.ofMinutes(5);
  // ipmitool before 1.8.19 prints "Instantaneous power reading:   312 Watts", later ones "… : 312      Watts"
  private static final Pattern READING = Pattern.compile("Instantaneous power reading\\s*:\\s*(\\d+(?:\\.\\d+)?)\\s*Watts");
  private static final Pattern STATE = Pattern.compile("Power reading state is\\s*:\\s*(\\w+)");

  private final String binary;
  private final Commands commands;
  private final LongSupplier clockMillis;
  private long nextTryAt;
  private boolean failing;

  public BmcPower(String binary, Commands commands) {
    this(binary, commands, System::currentTimeMillis);
  }

  BmcPower(String binary, Commands commands, LongSupplier clockMillis) {
    this.binary = binary;
    this.commands = commands;
    this.clockMillis = clockMillis;
  }

  /** Watts now, or null when the BMC cannot tell (or is not asked this time). */
  public synchronized Double watts() {
    long now = clockMillis.getAsLong();
    if (now < nextTryAt) {
      return null;
    }
    if (!Binaries.present(binary)) {
      nextTryAt = now + REPROBE_MISSING.toMillis();
      LOG.debug("{} not found: power is estimated (asking again in {} min)", binary, REPROBE_MISSING.toMinutes());
      return null;
    }
    Double watts = read();
    if (watts == null) {
      nextTryAt = now + AFTER_FAILURE.toMillis();
    } else if (failing) {
      LOG.info("the BMC reports power again");
    }
    failing = watts == null;
    return watts;
  }

  private Double read() {
    try {
      Commands.Result result = commands.run(List.of(binary, "dcmi", "power", "reading"), TIMEOUT);
      Double watts = result.ok() ? parse(result.out()) : null;
      if (watts == null && !failing) {
        LOG.warn("no power reading from the BMC (exit {}: {}); estimating, asking again in {} min",
            result.exit(), result.summary(), AFTER_FAILURE.toMinutes());
      }
      return watts;
    } catch (IOException e) {
      if (!failing) {
        LOG.warn("could not ask the BMC for power ({}); estimating", e.getMessage());
      }
      return null;
    }
  }

  /** The instantaneous reading; null when absent, zero, or the BMC says its reading is deactivated. */
  static Double parse(String out) {
    Matcher state = STATE.matcher(out);
    if (state.find() && !state.group(1).toLowerCase().startsWith("activ")) {
      return null;
    }
    Matcher m = READING.matcher(out);
    if (!m.find()) {
      return null;
    }
    double watts = Double.parseDouble(m.group(1));
    return watts > 0 ? watts : null;
  }
}
