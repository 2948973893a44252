package io.gpurental.agent.runtime;

/** The host ports instances' sshd may listen on, both ends included. */
public record PortRange(int first, int last) {

  public PortRange {
    if (first < 1 || last > 65535 || first > last) {
      throw new IllegalArgumentException("not a port range: " + first + "-" + last);
    }
  }

  /** Parses {@code 22000-22999}. */
  public static PortRange parse(String text) {
    String[] ends = text.strip().split("-");
    try {
      if (ends.length == 2) {
        return new PortRange(Integer.parseInt(ends[0].strip()), Integer.parseInt(ends[1].strip()));
      }
    } catch (NumberFormatException ignored) {
      // falls through to the message below
    }
    throw new IllegalArgumentException("expected FIRST-LAST (for example 22000-22999), got '" + text + "'");
  }

  @Override
  public String toString() {
    return first + "-" + last;
  }
}
