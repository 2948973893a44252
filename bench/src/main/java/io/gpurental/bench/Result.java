package io.gpurental.bench;

import org.HdrHistogram.Histogram;

/**
 * What a measured run produced: requests completed in the measured window, those that failed
 * (non-2xx or no answer), its length, and the latency histogram in microseconds.
 */
public record Result(String scenario, String target, int concurrency, long requests, long errors,
    double seconds, Histogram latencyMicros, String firstError) {

  public double requestsPerSecond() {
    return seconds <= 0 ? 0 : requests / seconds;
  }

  /** A latency percentile in milliseconds. */
  public double millis(double percentile) {
    return latencyMicros.getValueAtPercentile(percentile) / 1000.0;
  }

  public double maxMillis() {
    return latencyMicros.getMaxValue() / 1000.0;
  }
}
