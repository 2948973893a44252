package io.gpurental.gateway.fleet;

import io.gpurental.gateway.platform.Ids;
import io.gpurental.gateway.platform.audit.AuditLog;
import io.gpurental.gateway.platform.errors.Conflict;
import io.gpurental.gateway.platform.errors.Invalid;
import io.gpurental.gateway.platform.errors.NotFound;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The images instances run: the operator's templates (pinned by digest, audited), the registries
 * custom images may come from, and the choice a renter's quote or reservation makes. Hosts
 * pre-pull every live template ({@link DesiredState}) and report their cache in heartbeats.
 */
public final class Images {
  private static final Logger LOG = LoggerFactory.getLogger(Images.class);
  private final ImageRepository repository;
  private final DesiredStateWaits waits;

  Images(ImageRepository repository, DesiredStateWaits waits) {
    this.repository = repository;
    this.waits = waits;
  }

  /**
   * The live templates changed, so every host's pre-pull list did: a new desired-state version
   * wakes their long polls. A failure is logged (the next poll answers the list anyway).
   */
  private <T> T prePullChanged(T result) {
    repository.bumpHosts().onSuccess(ids -> ids.forEach(waits::changed))
        .onFailure(e -> LOG.warn("Hosts were not told the templates changed: {}", e.getMessage()));
    return result;
  }

  /** A template; {@code retiredAt} null while renters can pick it. */
  public record Template(String id, String name, String ref, String description, List<Integer> defaultPorts,
      String minDriverVersion, String minCudaVersion, boolean isDefault, OffsetDateTime createdAt,
      OffsetDateTime updatedAt, OffsetDateTime retiredAt) {}

  /** What the operator sets on a template. */
  public record TemplateSpec(String name, String ref, String description, List<Integer> defaultPorts,
      String minDriverVersion, String minCudaVersion, boolean isDefault) {}

  /** The registries custom images may come from, and each host's image cache limit. */
  public record Settings(List<String> allowedRegistries, int imageCacheLimitGb) {}

  /** The image an instance runs: a template's (its id) or a custom reference (id null), and the ports it publishes. */
  public record Chosen(String templateId, String ref, List<Integer> ports) {}

  /** Live templates first; the retired too when {@code withRetired}. */
  public Future<List<Template>> templates(boolean withRetired) {
    return repository.list(withRetired);
  }

  public Future<Template> template(String id) {
    return repository.find(id).map(found -> found.orElseThrow(() -> new NotFound("No image template " + id + ".")));
  }

  public Future<Template> create(TemplateSpec spec, String actor) {
    TemplateSpec checked = check(spec);
    String id = Ids.newId("img");
    return repository.pool().withTransaction(tx -> (checked.isDefault() ? ImageRepository.unsetOtherDefaults(tx, id)
            : Future.<Void>succeededFuture())
        .compose(v -> ImageRepository.insert(tx, id, checked))
        .compose(t -> AuditLog.append(tx, actor, "image.created", id, null, ImageRepository.audit(t)).map(t)))
        .recover(Images::nameTaken).map(this::prePullChanged);
  }

  /** Replaces the template's fields; a retired template cannot change (409). */
  public Future<Template> update(String id, TemplateSpec spec, String actor) {
    TemplateSpec checked = check(spec);
    return repository.pool().withTransaction(tx -> ImageRepository.lock(tx, id).compose(found -> {
      Template before = found.orElseThrow(() -> new NotFound("No image template " + id + "."));
      if (before.retiredAt() != null) {
        throw new Conflict("Image template " + id + " is retired; create a new one.");
      }
      return (checked.isDefault() ? ImageRepository.unsetOtherDefaults(tx, id) : Future.<Void>succeededFuture())
          .compose(v -> ImageRepository.update(tx, id, checked))
          .compose(after -> AuditLog.append(tx, actor, "image.updated", id, ImageRepository.audit(before),
              ImageRepository.audit(after)).map(after));
    })).recover(Images::nameTaken).map(this::prePullChanged);
  }

  /** Retires the template: no longer offered nor pre-pulled; reservations made with it keep their image. */
  public Future<Template> retire(String id, String actor) {
    return repository.pool().withTransaction(tx -> ImageRepository.lock(tx, id).compose(found -> {
      Template before = found.orElseThrow(() -> new NotFound("No image template " + id + "."));
      if (before.retiredAt() != null) {
        return Future.succeededFuture(before);
      }
      return ImageRepository.retire(tx, id).map(Optional::orElseThrow)
          .compose(after -> AuditLog.append(tx, actor, "image.retired", id, ImageRepository.audit(before),
              ImageRepository.audit(after)).map(after));
    })).map(this::prePullChanged);
  }

  public Future<Settings> settings() {
    return repository.settings();
  }

  public Future<Settings> updateSettings(List<String> allowedRegistries, Integer imageCacheLimitGb, String actor) {
    List<String> registries = allowedRegistries == null ? null
        : ImageRefs.requireRegistries(allowedRegistries, "#/allowed_registries");
    return repository.pool().withTransaction(tx -> ImageRepository.lockSettings(tx).compose(before -> {
      Settings after = new Settings(registries == null ? before.allowedRegistries() : registries,
          imageCacheLimitGb == null ? before.imageCacheLimitGb() : imageCacheLimitGb);
      return ImageRepository.setSettings(tx, after, actor).compose(saved -> AuditLog.append(tx, actor,
          "image_settings.updated", "image_settings", audit(before), audit(saved)).map(saved));
    }));
  }

  /**
   * The image a quote or reservation asks for: a live template's id ({@code img_…}), a reference
   * from an allowed registry, or nothing (the default template, or none when there is no
   * default); and the ports to publish (the template's defaults when none are asked for). 400
   * naming {@code pointer + "image"} or {@code pointer + "ports"} otherwise.
   */
  public Future<Optional<Chosen>> choose(String image, List<Integer> ports, String pointer) {
    List<Integer> asked = ports == null ? null : ImageRefs.requirePorts(ports, pointer + "ports");
    if (image == null) {
      return repository.defaultTemplate().map(found -> found.map(t -> chosen(t, asked))
          .or(() -> asked == null || asked.isEmpty() ? Optional.empty()
              : Optional.of(new Chosen(null, null, asked))));
    }
    if (image.startsWith("img_")) {
      return repository.find(image).map(found -> found.filter(t -> t.retiredAt() == null).map(t -> chosen(t, asked))
          .map(Optional::of).orElseThrow(() -> new Invalid("No image template " + image + " (GET /api/v1/images lists them).",
              List.of(new Invalid.FieldError(pointer + "image", "unknown or retired image template")))));
    }
    return repository.settings().map(settings -> Optional.of(new Chosen(null,
        ImageRefs.requireAllowed(image, settings.allowedRegistries(), pointer + "image"),
        asked == null ? List.of() : asked)));
  }

  private static Chosen chosen(Template t, List<Integer> asked) {
    return new Chosen(t.id(), t.ref(), asked == null ? t.defaultPorts() : asked);
  }

  private static TemplateSpec check(TemplateSpec spec) {
    ImageRefs.requirePinned(spec.ref(), "#/ref");
    List<Integer> ports = ImageRefs.requirePorts(spec.defaultPorts() == null ? List.of() : spec.defaultPorts(),
        "#/default_ports");
    return new TemplateSpec(spec.name().trim(), spec.ref(), spec.description() == null ? "" : spec.description(),
        ports, blankToNull(spec.minDriverVersion()), blankToNull(spec.minCudaVersion()), spec.isDefault());
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.trim();
  }

  private static <T> Future<T> nameTaken(Throwable failure) {
    if (failure.getMessage() != null && failure.getMessage().contains("image_templates_name_key")) {
      return Future.failedFuture(new Conflict("A live image template already has this name."));
    }
    if (failure.getMessage() != null && failure.getMessage().contains("image_templates_default_key")) {
      return Future.failedFuture(new Conflict("Another template was made the default at the same time; try again."));
    }
    return Future.failedFuture(failure);
  }

  private static JsonObject audit(Settings s) {
    return new JsonObject().put("allowed_registries", new JsonArray(s.allowedRegistries()))
        .put("image_cache_limit_gb", s.imageCacheLimitGb());
  }
}
