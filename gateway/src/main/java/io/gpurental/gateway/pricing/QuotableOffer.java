package io.gpurental.gateway.pricing;

import java.util.List;

/** What a quote needs to know of an offer for one window. */
public record QuotableOffer(String id, List<Integer> gpuCounts, int gpusAvailable, int gpusTotal,
    long pricePerGpuHour, String currency) {}
