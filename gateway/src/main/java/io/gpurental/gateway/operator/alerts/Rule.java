package io.gpurental.gateway.operator.alerts;

import java.util.List;
import java.util.Optional;

/**
 * An alert rule: the SQL that lists the targets whose condition holds now (each with its
 * details as JSON text) over the views other features publish, and, for a rule whose view comes
 * from a feature not yet merged, the SQL that tells whether that view is there.
 *
 * @param name the rule's name, as in {@code alerts.rules.<name>} and on every incident
 * @param conditions {@code SELECT target, details::text …}; its {@code $1, $2, …} are {@code arguments}
 * @param available {@code SELECT boolean} that is true once the source exists; empty: always there
 * @param arguments the values bound to {@code $1, $2, …} of {@code conditions}, in order
 */
record Rule(String name, String conditions, Optional<String> available, List<Object> arguments) {

  Rule {
    arguments = List.copyOf(arguments);
  }
}
