package io.gpurental.gateway.operator.alerts;

import io.vertx.core.Future;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One evaluation of every enabled rule (a cluster job): for each, in one transaction, opens the
 * incidents whose condition now holds, resolves those whose condition cleared, and queues one
 * notification per transition and configured channel. A rule whose source view is not there is
 * skipped (and said once in the log); a rule that fails does not hold back the others.
 */
final class RuleEvaluator {
  private static final Logger LOG = LoggerFactory.getLogger(RuleEvaluator.class);
  private final IncidentRepository incidents;
  private final List<Rule> rules;
  private final List<String> channels;
  private final Set<String> reportedUnavailable = ConcurrentHashMap.newKeySet();

  RuleEvaluator(IncidentRepository incidents, List<Rule> rules, List<String> channels) {
    this.incidents = incidents;
    this.rules = rules;
    this.channels = channels;
  }

  Future<Void> evaluate() {
    Future<Void> inOrder = Future.succeededFuture();
    for (Rule rule : rules) {
      inOrder = inOrder.compose(v -> evaluateAlone(rule));
    }
    return inOrder;
  }

  private Future<Void> evaluateAlone(Rule rule) {
    return incidents.available(rule).compose(available -> {
      if (!available) {
        if (reportedUnavailable.add(rule.name())) {
          LOG.info("Alert rule {} is inactive: the view it reads is not in this schema yet", rule.name());
        }
        return Future.<Void>succeededFuture();
      }
      return incidents.conditions(rule).compose(holding -> apply(rule, holding));
    }).recover(e -> {
      LOG.warn("Alert rule {} could not be evaluated; the next run retries: {}", rule.name(), e.getMessage());
      return Future.succeededFuture();
    });
  }

  private Future<Void> apply(Rule rule, List<Condition> holding) {
    List<String> targets = holding.stream().map(Condition::target).toList();
    return incidents.pool().withTransaction(tx -> IncidentRepository.open(tx, rule.name(), holding)
        .compose(opened -> IncidentRepository.queue(tx, opened, "opened", channels).map(opened))
        .compose(opened -> IncidentRepository.resolve(tx, rule.name(), targets)
            .compose(resolved -> IncidentRepository.queue(tx, resolved, "resolved", channels).map(resolved))
            .onSuccess(resolved -> {
              if (!opened.isEmpty() || !resolved.isEmpty()) {
                LOG.info("Alert rule {}: opened {}, resolved {}", rule.name(), opened, resolved);
              }
            })))
        .mapEmpty();
  }
}
