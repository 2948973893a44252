package io.gpurental.gateway.sandbox.stripe;

import io.vertx.core.MultiMap;

/** The card fields of the hosted page, validated as Stripe's form does. */
record CardForm(String number, int month, int year, String name) {

  /** What is wrong with the entered card, in Stripe's words, or null when it is acceptable. */
  static String problem(MultiMap form) {
    String number = TestCards.digits(form.get("card_number"));
    if (number.isEmpty()) {
      return "Your card number is incomplete.";
    }
    if (!TestCards.luhn(number)) {
      return "Your card number is invalid.";
    }
    if (!TestCards.known(number)) {
      return "Your card was declined. Your request was in test mode, but used a non test card.";
    }
    int[] expiry = expiry(form.get("expiry"));
    if (expiry == null) {
      return "Your card's expiration date is incomplete.";
    }
    if (TestCards.expired(expiry[0], expiry[1])) {
      return "Your card's expiration year is in the past.";
    }
    String cvc = form.get("cvc") == null ? "" : form.get("cvc").trim();
    if (!cvc.matches("\\d{3,4}")) {
      return "Your card's security code is incomplete.";
    }
    if (form.get("name") == null || form.get("name").isBlank()) {
      return "Enter the name on the card.";
    }
    return null;
  }

  static CardForm of(MultiMap form) {
    int[] expiry = expiry(form.get("expiry"));
    return new CardForm(TestCards.digits(form.get("card_number")), expiry[0], expiry[1], form.get("name").trim());
  }

  /** {@code MM/YY} or {@code MM / YYYY} → {month, full year}, or null. */
  private static int[] expiry(String value) {
    if (value == null) {
      return null;
    }
    String[] parts = value.replace(" ", "").split("/");
    if (parts.length != 2 || !parts[0].matches("\\d{1,2}") || !parts[1].matches("\\d{2}|\\d{4}")) {
      return null;
    }
    int month = Integer.parseInt(parts[0]);
    int year = Integer.parseInt(parts[1]);
    if (month < 1 || month > 12) {
      return null;
    }
    return new int[] {month, year < 100 ? 2000 + year : year};
  }
}
