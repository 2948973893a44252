package io.gpurental.gateway.operator;

import io.gpurental.gateway.auth.Principal;
import io.gpurental.gateway.pricing.CurrentTerms;
import io.gpurental.gateway.pricing.TermsJson;
import io.vertx.ext.web.openapi.router.RouterBuilder;

/** {@code GET/PUT /operator/settings}: the terms of sale every new quote is priced with. */
final class SettingsApi {
  private final CurrentTerms terms;
  private final String currency;

  SettingsApi(CurrentTerms terms, String currency) {
    this.terms = terms;
    this.currency = currency;
  }

  void bind(RouterBuilder api) {
    api.getRoute("getOperatorSettings").addHandler(ctx -> terms.get()
        .onSuccess(current -> ctx.json(TermsJson.of(current).put("currency", currency))).onFailure(ctx::fail));
    api.getRoute("putOperatorSettings").addHandler(ctx -> terms.update(TermsJson.from(ctx.body().asJsonObject()),
            "account:" + Principal.required(ctx).accountId())
        .onSuccess(updated -> ctx.json(TermsJson.of(updated).put("currency", currency))).onFailure(ctx::fail));
  }
}
