package io.gpurental.agent.runtime.container;

import io.gpurental.agent.protocol.DesiredInstance;
import io.gpurental.agent.protocol.InstanceReport.Port;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** The labels an instance's container carries, and reading them back from the engine's listings. */
final class Labels {
  private Labels() {
  }

  static Map<String, String> forInstance(DesiredInstance d, int sshPort, List<Port> extra) {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(ContainerRuntime.LABEL, d.id());
    labels.put(ContainerRuntime.LABEL_SSH_PORT, Integer.toString(sshPort));
    labels.put(ContainerRuntime.LABEL_PORTS, extra.stream().map(p -> p.containerPort() + ":" + p.hostPort())
        .collect(Collectors.joining(",")));
    labels.put(ContainerRuntime.LABEL_GPUS, d.gpuUuids());
    labels.put("io.gpurental.image", d.image().ref());
    return labels;
  }

  /** Engine objects (containers, networks, volumes) by the instance id in their label. */
  static Map<String, JsonObject> byInstance(JsonArray objects, String labelsField) {
    Map<String, JsonObject> byId = new LinkedHashMap<>();
    for (Object o : objects) {
      JsonObject object = (JsonObject) o;
      JsonObject labels = object.getJsonObject(labelsField);
      String id = labels == null ? null : labels.getString(ContainerRuntime.LABEL);
      if (id != null && id.matches("[A-Za-z0-9_-]{1,64}")) {
        byId.put(id, object);
      }
    }
    return byId;
  }

  static Map<String, String> of(JsonObject labels) {
    Map<String, String> map = new LinkedHashMap<>();
    if (labels != null) {
      labels.forEach(e -> map.put(e.getKey(), String.valueOf(e.getValue())));
    }
    return map;
  }

  static List<Port> ports(Map<String, String> labels) {
    String text = labels.getOrDefault(ContainerRuntime.LABEL_PORTS, "");
    List<Port> ports = new ArrayList<>();
    for (String pair : text.split(",")) {
      String[] ends = pair.split(":");
      if (ends.length == 2) {
        ports.add(new Port(Integer.parseInt(ends[0]), Integer.parseInt(ends[1])));
      }
    }
    return ports;
  }

  static List<Integer> hostPorts(Map<String, String> labels) {
    List<Integer> ports = new ArrayList<>();
    String ssh = labels.get(ContainerRuntime.LABEL_SSH_PORT);
    if (ssh != null) {
      ports.add(Integer.parseInt(ssh));
    }
    ports(labels).forEach(p -> ports.add(p.hostPort()));
    return ports;
  }

  /** The GPU UUIDs from a container's inspect {@code Config}. */
  static List<String> gpus(JsonObject config) {
    String text = of(config.getJsonObject("Labels")).getOrDefault(ContainerRuntime.LABEL_GPUS, "");
    return text.isBlank() ? List.of() : Arrays.asList(text.split(","));
  }
}
