package io.gpurental.agent.runtime.container;

import io.gpurental.agent.runtime.Commands;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The iptables rules of one instance's network: from its subnet, nothing new may reach the host
 * itself (INPUT, except DNS to the network's gateway, where the engine answers names) and nothing
 * new may be forwarded to private, shared, link-local or metadata addresses (FORWARD), which also
 * keeps instances apart (their networks are private ranges). Two chains of the instance's own,
 * jumped first from INPUT and FORWARD, so the engine's own accept rules come after them. IPv6 is
 * switched off inside the container instead (a sysctl of its namespace), which covers ULA and
 * link-local v6. Blocking: worker threads only.
 */
final class EgressRules {
  /** Refused destinations; 169.254.169.254 is inside link-local but named so operators see it. */
  static final List<String> REFUSED = List.of("169.254.169.254/32", "10.0.0.0/8", "172.16.0.0/12",
      "192.168.0.0/16", "100.64.0.0/10", "169.254.0.0/16", "127.0.0.0/8", "224.0.0.0/4");
  private static final Duration TIMEOUT = Duration.ofSeconds(20);

  private final Commands commands;

  EgressRules(Commands commands) {
    this.commands = commands;
  }

  /** {@code GPRI-…} / {@code GPRF-…}: short (iptables allows 28 characters), stable per instance. */
  static String chain(String kind, String instanceId) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(instanceId.getBytes(StandardCharsets.UTF_8));
      return "GPR" + kind + "-" + HexFormat.of().formatHex(digest, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Installs (or re-installs, after a reboot flushed them) the rules for {@code subnet}. */
  synchronized void install(String instanceId, String subnet, String gateway) throws IOException {
    remove(instanceId);
    String in = chain("I", instanceId);
    String fwd = chain("F", instanceId);
    run("-N", in);
    run("-A", in, "-m", "conntrack", "--ctstate", "ESTABLISHED,RELATED", "-j", "RETURN");
    if (gateway != null) {
      run("-A", in, "-d", gateway, "-p", "udp", "--dport", "53", "-j", "RETURN");
      run("-A", in, "-d", gateway, "-p", "tcp", "--dport", "53", "-j", "RETURN");
    }
    run("-A", in, "-j", "REJECT");
    run("-N", fwd);
    run("-A", fwd, "-m", "conntrack", "--ctstate", "ESTABLISHED,RELATED", "-j", "RETURN");
    for (String range : REFUSED) {
      run("-A", fwd, "-d", range, "-j", "REJECT");
    }
    run("-I", "INPUT", "1", "-s", subnet, "-j", in);
    run("-I", "FORWARD", "1", "-s", subnet, "-j", fwd);
  }

  /**
   * True when the rules hold: both chains are there with their refusals, and INPUT and FORWARD
   * jump to them before any rule that is not an instance's jump. A flush (the chains stay, empty)
   * or the engine's own rules inserted above ours (an engine restart) leave an adopted instance
   * without its egress rules otherwise.
   */
  boolean installed(String instanceId) throws IOException {
    String in = chain("I", instanceId);
    String fwd = chain("F", instanceId);
    Commands.Result inRules = list(in);
    Commands.Result fwdRules = list(fwd);
    return inRules.ok() && fwdRules.ok() && inRules.out().contains("-A " + in + " -j REJECT")
        && REFUSED.stream().allMatch(range -> fwdRules.out().contains("-d " + range + " -j REJECT"))
        && jumpsFirst("INPUT", in) && jumpsFirst("FORWARD", fwd);
  }

  /** Whether {@code builtin} jumps to {@code target} with only other instances' jumps above it. */
  private boolean jumpsFirst(String builtin, String target) throws IOException {
    for (String line : list(builtin).out().split("\\R")) {
      if (line.startsWith("-P ") || line.isBlank()) {
        continue;
      }
      if (line.endsWith("-j " + target)) {
        return true;
      }
      if (!line.matches("-A " + builtin + " -s \\S+ -j GPR[IF]-[0-9a-f]{16}")) {
        return false;
      }
    }
    return false;
  }

  private Commands.Result list(String chain) throws IOException {
    return commands.run(List.of("iptables", "-w", "5", "-S", chain), TIMEOUT);
  }

  /**
   * Host ports the NAT table forwards somewhere. Podman 4.3's netavark leaves a container's DNAT
   * rule behind when the container restarts (seen here: the old rule wins and the port leads to a
   * dead address), so a port with any DNAT rule is not handed out again. Empty when unreadable.
   */
  java.util.Set<Integer> forwardedPorts() {
    java.util.Set<Integer> ports = new java.util.HashSet<>();
    try {
      Commands.Result nat = commands.run(List.of("iptables", "-w", "5", "-t", "nat", "-S"), TIMEOUT);
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("--dport (\\d+) .*-j DNAT").matcher(nat.out());
      while (m.find()) {
        ports.add(Integer.parseInt(m.group(1)));
      }
    } catch (IOException e) {
      // the bind check still applies
    }
    return ports;
  }

  /** Removes the jumps and both chains; fine when they are not there. */
  synchronized void remove(String instanceId) throws IOException {
    for (String[] pair : new String[][] {{"INPUT", chain("I", instanceId)}, {"FORWARD", chain("F", instanceId)}}) {
      for (String rule : jumps(pair[0], pair[1])) {
        List<String> argv = new ArrayList<>(List.of("iptables", "-w", "5", "-D", pair[0]));
        argv.addAll(List.of(rule.replaceFirst("^-A \\S+ ", "").split(" ")));
        commands.run(argv, TIMEOUT);
      }
      commands.run(List.of("iptables", "-w", "5", "-F", pair[1]), TIMEOUT);
      commands.run(List.of("iptables", "-w", "5", "-X", pair[1]), TIMEOUT);
    }
  }

  /** The rules of {@code builtin} that jump to {@code target}, as {@code iptables -S} prints them. */
  private List<String> jumps(String builtin, String target) throws IOException {
    Commands.Result listed = commands.run(List.of("iptables", "-w", "5", "-S", builtin), TIMEOUT);
    List<String> rules = new ArrayList<>();
    for (String line : listed.out().split("\\R")) {
      if (line.endsWith("-j " + target)) {
        rules.add(line);
      }
    }
    return rules;
  }

  private void run(String... args) throws IOException {
    List<String> argv = new ArrayList<>(List.of("iptables", "-w", "5"));
    argv.addAll(List.of(args));
    Commands.Result r = commands.run(argv, TIMEOUT);
    if (!r.ok()) {
      throw new IOException("iptables " + String.join(" ", args) + ": " + r.summary());
    }
  }
}
