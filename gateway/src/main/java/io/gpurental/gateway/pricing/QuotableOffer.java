package io.gpurental.gateway.pricing;

import java.util.List;
import java.util.Optional;

/**
 * What a quote needs to know of an offer for one window, with the image templates its host cannot
 * run (its driver or CUDA is older than the template's minimum).
 */
public record QuotableOffer(String id, List<Integer> gpuCounts, int gpusAvailable, int gpusTotal,
    long pricePerGpuHour, String currency, List<UnavailableImage> unavailableImages) {

  /** A template the offer's host cannot run: why, and the versions compared (null where none). */
  public record UnavailableImage(String templateId, String reason, String minDriverVersion, String driverVersion,
      String minCudaVersion, String cudaVersion) {}

  /** The refusal for the template, when the host cannot run it. */
  public Optional<UnavailableImage> unavailable(String templateId) {
    return templateId == null ? Optional.empty()
        : unavailableImages.stream().filter(u -> u.templateId().equals(templateId)).findFirst();
  }
}
