package io.gpurental.agent.runtime.container;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * The Docker Engine API calls the container runtime needs, typed. The same calls serve Docker
 * Engine and Podman's compatible service; the one exception is creating a container on Podman,
 * whose compatible API (4.3) cannot name CDI devices (see {@link ContainerSpec}). Blocking: worker
 * threads only. Every call has a hard timeout.
 */
final class Engine {
  static final String API = "/v1.41";
  private static final Duration QUICK = Duration.ofSeconds(30);
  /** Removing a container whose processes fork without end can take a while; never forever. */
  private static final Duration REMOVE = Duration.ofSeconds(60);

  private final EngineHttp http;
  private final Path socket;
  private volatile Boolean podman;
  private volatile String version;

  Engine(Path socket) {
    this.http = new EngineHttp(socket);
    this.socket = socket;
  }

  Path socket() {
    return socket;
  }

  /** The engine's {@code /info} (Docker's names the daemon's security options, userns among them). */
  JsonObject info() throws IOException {
    return ok(http.call("GET", API + "/info", null, QUICK), "info").json();
  }

  /** "podman 4.3.1" or "docker 27.1.0" (the engine's own name and version). */
  synchronized String version() throws IOException {
    if (version == null) {
      JsonObject v = ok(http.call("GET", API + "/version", null, QUICK), "version").json();
      boolean isPodman = v.getJsonArray("Components", new JsonArray()).stream()
          .anyMatch(c -> String.valueOf(((JsonObject) c).getString("Name")).contains("Podman"));
      podman = isPodman;
      version = (isPodman ? "podman " : "docker ") + v.getString("Version");
    }
    return version;
  }

  boolean podman() throws IOException {
    version();
    return podman;
  }

  /** Containers carrying every one of {@code labels} ({@code key=value} or {@code key}). */
  JsonArray containers(String... labels) throws IOException {
    return array(http.call("GET", API + "/containers/json?all=true&filters=" + filter(labels), null, QUICK), "list containers");
  }

  /** Null when there is no such container. */
  JsonObject inspect(String name) throws IOException {
    EngineHttp.Response r = http.call("GET", API + "/containers/" + name + "/json", null, QUICK);
    return r.status() == 404 ? null : ok(r, "inspect " + name).json();
  }

  /**
   * The inspect that names the user-namespace map: Podman shows it only in its own API, Docker has
   * none per container (its userns-remap is the daemon's).
   */
  JsonObject inspectIds(String name) throws IOException {
    if (!podman()) {
      return inspect(name);
    }
    return ok(http.call("GET", "/v4.0.0/libpod/containers/" + name + "/json", null, QUICK), "inspect " + name).json();
  }

  String create(String name, JsonObject body, boolean libpod) throws IOException {
    String path = libpod ? "/v4.0.0/libpod/containers/create" : API + "/containers/create?name=" + name;
    return ok(http.call("POST", path, body, QUICK), "create " + name).json().getString("Id");
  }

  /**
   * Whether {@code path} exists in a container's filesystem (symlinks followed), asked of the
   * engine's archive stat ({@code HEAD}): the engine looks, nothing runs inside the container.
   */
  boolean exists(String name, String path) throws IOException {
    EngineHttp.Response r = http.call("HEAD", API + "/containers/" + name + "/archive?path=" + encode(path), null, QUICK);
    if (r.status() == 404) {
      return false;
    }
    ok(r, "stat " + path + " in " + name);
    return true;
  }

  void start(String name) throws IOException {
    EngineHttp.Response r = http.call("POST", API + "/containers/" + name + "/start", null, QUICK);
    if (r.status() != 304) {
      ok(r, "start " + name);
    }
  }

  /**
   * Kills and removes with its anonymous volumes; fine when it is gone already. Podman 4.3 here
   * sometimes answers "device or resource busy" for the container's shm mount and then succeeds on
   * the next try: a few bounded retries, because a container left behind keeps its port forwarding.
   */
  void remove(String name) throws IOException {
    for (int attempt = 1; ; attempt++) {
      EngineHttp.Response r = http.call("DELETE", API + "/containers/" + name + "?force=true&v=true", null, REMOVE);
      if (r.status() == 404 || r.ok()) {
        return;
      }
      if (attempt == 5 || !r.body().contains("busy")) {
        ok(r, "remove " + name);
      }
      pause(200L * attempt);
    }
  }

  private static void pause(long millis) throws IOException {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  JsonArray networks(String... labels) throws IOException {
    return array(http.call("GET", API + "/networks?filters=" + filter(labels), null, QUICK), "list networks");
  }

  JsonObject createNetwork(JsonObject body) throws IOException {
    return ok(http.call("POST", API + "/networks/create", body, QUICK), "create network").json();
  }

  /** Null when there is no such network. */
  JsonObject network(String name) throws IOException {
    EngineHttp.Response r = http.call("GET", API + "/networks/" + name, null, QUICK);
    return r.status() == 404 ? null : ok(r, "inspect network " + name).json();
  }

  void removeNetwork(String name) throws IOException {
    EngineHttp.Response r = http.call("DELETE", API + "/networks/" + name, null, QUICK);
    if (r.status() != 404) {
      ok(r, "remove network " + name);
    }
  }

  JsonArray volumes(String... labels) throws IOException {
    JsonObject answer = ok(http.call("GET", API + "/volumes?filters=" + filter(labels), null, QUICK), "list volumes").json();
    JsonArray volumes = answer.getJsonArray("Volumes");
    return volumes == null ? new JsonArray() : volumes;
  }

  void createVolume(String name, JsonObject labels) throws IOException {
    ok(http.call("POST", API + "/volumes/create", new JsonObject().put("Name", name).put("Labels", labels), QUICK),
        "create volume " + name);
  }

  void removeVolume(String name) throws IOException {
    EngineHttp.Response r = http.call("DELETE", API + "/volumes/" + name + "?force=true", null, QUICK);
    if (r.status() != 404) {
      ok(r, "remove volume " + name);
    }
  }

  JsonArray images() throws IOException {
    return array(http.call("GET", API + "/images/json", null, QUICK), "list images");
  }

  /** Null when the image is not here. */
  JsonObject image(String ref) throws IOException {
    EngineHttp.Response r = http.call("GET", API + "/images/" + encode(ref) + "/json", null, QUICK);
    return r.status() == 404 ? null : ok(r, "inspect image " + ref).json();
  }

  void removeImage(String id) throws IOException {
    EngineHttp.Response r = http.call("DELETE", API + "/images/" + encode(id), null, QUICK);
    if (r.status() != 404 && r.status() != 409) {
      ok(r, "remove image " + id);
    }
  }

  /**
   * Pulls, telling {@code progress} each JSON line; fails with the engine's error line. A
   * {@code progress} that throws ends the pull there: the connection is closed, and the engine
   * cancels a pull whose client is gone.
   */
  void pull(String ref, Duration timeout, Consumer<JsonObject> progress) throws IOException {
    String[] error = new String[1];
    int status = http.stream("POST", API + "/images/create?fromImage=" + encode(ref), timeout, line -> {
      if (line.isBlank()) {
        return;
      }
      JsonObject event;
      try {
        event = new JsonObject(line);
      } catch (RuntimeException e) {
        return;
      }
      if (event.containsKey("error")) {
        error[0] = String.valueOf(event.getValue("error"));
      }
      progress.accept(event);
    });
    if (status != 200 || error[0] != null) {
      throw new IOException("pull " + ref + ": " + (error[0] != null ? error[0] : "HTTP " + status));
    }
  }

  private static String filter(String... labels) {
    return encode(new JsonObject().put("label", new JsonArray(List.of((Object[]) labels))).encode());
  }

  static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  private static JsonArray array(EngineHttp.Response r, String what) throws IOException {
    String body = ok(r, what).body();
    return body.isBlank() || body.strip().equals("null") ? new JsonArray() : new JsonArray(body);
  }

  private static EngineHttp.Response ok(EngineHttp.Response r, String what) throws IOException {
    if (!r.ok()) {
      throw new IOException(what + ": " + r.message());
    }
    return r;
  }
}
