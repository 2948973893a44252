package io.gpurental.gateway.operator.alerts;

/** A rule's condition holding for one target now, with what the incident should say about it. */
record Condition(String target, String detailsJson) {}
