package io.gpurental.gateway.fleet;

import io.gpurental.gateway.platform.errors.Invalid;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Container image references as the Docker distribution grammar writes them
 * ({@code [registry[:port]/]path[:tag][@sha256:<64 hex>]}), and the ports an instance publishes.
 * Nothing outside the grammar passes (no spaces, no shell syntax), so a reference can go into the
 * agent's engine call and the renter's page as it is.
 */
public final class ImageRefs {
  private static final String DOMAIN = "(?:[A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9-]*[A-Za-z0-9])"
      + "(?:\\.(?:[A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9-]*[A-Za-z0-9]))*(?::[0-9]{1,5})?";
  private static final String COMPONENT = "[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*";
  private static final Pattern REFERENCE = Pattern.compile("(?:(" + DOMAIN + ")/)?(" + COMPONENT + "(?:/" + COMPONENT
      + ")*)(?::([A-Za-z0-9_][A-Za-z0-9_.-]{0,127}))?(?:@(sha256:[0-9a-f]{64}))?");
  private static final Pattern REGISTRY = Pattern.compile(DOMAIN + "(?:/" + COMPONENT + ")*");
  /** The most ports an instance publishes besides SSH. */
  public static final int MAX_PORTS = 8;

  private ImageRefs() {}

  /**
   * A parsed reference: its registry (null: none named, i.e. Docker Hub), tag and digest (each null
   * when not given).
   */
  record Parsed(String registry, String path, String tag, String digest) {}

  static Optional<Parsed> parse(String ref) {
    if (ref == null || ref.length() > 512) {
      return Optional.empty();
    }
    Matcher m = REFERENCE.matcher(ref);
    if (!m.matches()) {
      return Optional.empty();
    }
    String first = m.group(1);
    // "a/b" names the Docker Hub path a/b; a first part is a registry only with a dot, a port or localhost
    if (first != null && !first.contains(".") && !first.contains(":") && !first.equals("localhost")) {
      if (!first.matches(COMPONENT)) {
        return Optional.empty();
      }
      return Optional.of(new Parsed(null, first + "/" + m.group(2), m.group(3), m.group(4)));
    }
    return Optional.of(new Parsed(first == null ? null : first.toLowerCase(Locale.ROOT), m.group(2), m.group(3),
        m.group(4)));
  }

  /** A template's reference: valid and pinned by digest ({@code …@sha256:<64 hex>}), else 400 at {@code pointer}. */
  static String requirePinned(String ref, String pointer) {
    Optional<Parsed> parsed = parse(ref);
    if (parsed.isEmpty() || parsed.get().digest() == null) {
      throw new Invalid("An image template is pinned by digest: registry/name@sha256:<64 lower-case hex digits>.",
          List.of(new Invalid.FieldError(pointer, "must be an image reference ending in @sha256:<64 hex>")));
    }
    return ref;
  }

  /**
   * A custom image's reference: valid, from one of the allowed registries, and with a tag or a
   * digest, else 400 naming the rule. Without either, Docker Engine pulls every tag of the
   * repository and Podman pulls {@code :latest}, which the repository may not have. (The colon of
   * a registry's port, {@code localhost:5000/x}, is no tag.)
   */
  static String requireAllowed(String ref, List<String> allowed, String pointer) {
    Optional<Parsed> parsed = parse(ref);
    if (parsed.isEmpty()) {
      throw new Invalid("image is neither an image template id (img_…) nor an image reference.",
          List.of(new Invalid.FieldError(pointer, "must be a template id (GET /api/v1/images) or an image reference"
              + " registry/name[:tag][@sha256:…]")));
    }
    String full = parsed.get().registry() == null ? null : parsed.get().registry() + "/" + parsed.get().path();
    boolean ok = full != null && allowed.stream().map(a -> a.toLowerCase(Locale.ROOT))
        .anyMatch(a -> full.startsWith(a + "/"));
    if (!ok) {
      String rule = allowed.isEmpty() ? "custom images are not allowed here; pick a template (GET /api/v1/images)"
          : "a custom image must come from an allowed registry: " + String.join(", ", allowed);
      throw new Invalid("The image is not allowed: " + rule + ".", List.of(new Invalid.FieldError(pointer, rule)));
    }
    if (parsed.get().tag() == null && parsed.get().digest() == null) {
      throw new Invalid("The image " + ref + " names no tag or digest: say which image of the repository, e.g. "
          + ref + ":1.0 or " + ref + "@sha256:<64 hex>.", List.of(new Invalid.FieldError(pointer,
              "must name a tag or a digest: registry/name:tag or registry/name@sha256:<64 hex>")));
    }
    return ref;
  }

  /** An allowed-registry entry: a registry host (with port) and optionally a path prefix. */
  static List<String> requireRegistries(List<String> registries, String pointer) {
    List<String> valid = new ArrayList<>();
    for (int i = 0; i < registries.size(); i++) {
      String entry = registries.get(i).trim();
      String host = entry.split("/", 2)[0];
      if (!REGISTRY.matcher(entry).matches() || !(host.contains(".") || host.contains(":") || host.equals("localhost"))) {
        throw new Invalid("An allowed registry is a registry host (with a dot, a port or localhost), optionally with a"
            + " path prefix, e.g. ghcr.io/acme.", List.of(new Invalid.FieldError(pointer + "/" + i,
                "not a registry host such as ghcr.io or registry.example:5000/team")));
      }
      valid.add(entry.toLowerCase(Locale.ROOT));
    }
    return valid.stream().distinct().toList();
  }

  /** Ports to publish besides SSH: 1–65535, not 22, unique, at most {@link #MAX_PORTS}; else 400 at {@code pointer}. */
  public static List<Integer> requirePorts(List<Integer> ports, String pointer) {
    if (ports.size() > MAX_PORTS) {
      throw portError(pointer, "at most " + MAX_PORTS + " ports");
    }
    Set<Integer> seen = new HashSet<>();
    for (int i = 0; i < ports.size(); i++) {
      Integer port = ports.get(i);
      if (port == null || port < 1 || port > 65535) {
        throw portError(pointer + "/" + i, "a port is 1 to 65535");
      }
      if (port == 22) {
        throw portError(pointer + "/" + i, "22 is SSH's, published always");
      }
      if (!seen.add(port)) {
        throw portError(pointer + "/" + i, "each port once");
      }
    }
    return List.copyOf(ports);
  }

  private static Invalid portError(String pointer, String message) {
    return new Invalid("ports: " + message + ".", List.of(new Invalid.FieldError(pointer, message)));
  }
}
