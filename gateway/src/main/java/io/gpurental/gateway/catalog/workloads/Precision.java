package io.gpurental.gateway.catalog.workloads;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * How many bytes a weight takes. int4 is ≈0.5 byte (group-wise scales add a few percent, left
 * out). The KV cache stays 16-bit under weight-only int4 quantisation and is 8-bit under fp8.
 */
public enum Precision {
  BF16(2.0, 2),
  FP8(1.0, 1),
  INT4(0.5, 2);

  private final double bytesPerParameter;
  private final int kvCacheBytes;

  Precision(double bytesPerParameter, int kvCacheBytes) {
    this.bytesPerParameter = bytesPerParameter;
    this.kvCacheBytes = kvCacheBytes;
  }

  public double bytesPerParameter() {
    return bytesPerParameter;
  }

  /** Bytes per cached key or value element. */
  public int kvCacheBytes() {
    return kvCacheBytes;
  }

  /** The API name: {@code bf16}, {@code fp8}, {@code int4}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Precision of(String label) {
    return valueOf(label.toUpperCase(Locale.ROOT));
  }

  public static List<String> labels() {
    return Arrays.stream(values()).map(Precision::label).toList();
  }
}
