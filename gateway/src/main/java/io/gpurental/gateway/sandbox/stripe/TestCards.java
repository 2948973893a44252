package io.gpurental.gateway.sandbox.stripe;

import io.vertx.core.json.JsonObject;
import java.time.YearMonth;
import java.util.Map;

/** Stripe's documented test cards and what each does when charged. */
final class TestCards {
  /** What happens when a card is charged. */
  enum Outcome { SUCCEEDS, DECLINED, INSUFFICIENT_FUNDS, REQUIRES_AUTHENTICATION, CHARGE_FAILS }

  static final String VISA = "4242424242424242";
  static final String DECLINED = "4000000000000002";
  static final String INSUFFICIENT_FUNDS = "4000000000009995";
  static final String AUTHENTICATION = "4000002500003155";
  static final String ATTACH_THEN_FAIL = "4000000000000341";

  private static final Map<String, Outcome> OUTCOMES = Map.of(
      VISA, Outcome.SUCCEEDS,
      DECLINED, Outcome.DECLINED,
      INSUFFICIENT_FUNDS, Outcome.INSUFFICIENT_FUNDS,
      AUTHENTICATION, Outcome.REQUIRES_AUTHENTICATION,
      ATTACH_THEN_FAIL, Outcome.CHARGE_FAILS);

  /** Stripe's test PaymentMethod ids, usable wherever a payment method id is expected. */
  static final Map<String, String> TEST_PAYMENT_METHODS = Map.of(
      "pm_card_visa", VISA,
      "pm_card_chargeDeclined", DECLINED,
      "pm_card_chargeDeclinedInsufficientFunds", INSUFFICIENT_FUNDS,
      "pm_card_authenticationRequired", AUTHENTICATION,
      "pm_card_chargeCustomerFail", ATTACH_THEN_FAIL);

  private TestCards() {}

  static Outcome outcome(String number) {
    return OUTCOMES.getOrDefault(number, Outcome.SUCCEEDS);
  }

  static boolean known(String number) {
    return OUTCOMES.containsKey(number);
  }

  static String digits(String number) {
    return number == null ? "" : number.replaceAll("[\\s-]", "");
  }

  /** Luhn check, as Stripe's card field validates. */
  static boolean luhn(String number) {
    if (!number.matches("\\d{12,19}")) {
      return false;
    }
    int sum = 0;
    boolean doubleIt = false;
    for (int i = number.length() - 1; i >= 0; i--) {
      int digit = number.charAt(i) - '0';
      if (doubleIt) {
        digit *= 2;
        if (digit > 9) {
          digit -= 9;
        }
      }
      sum += digit;
      doubleIt = !doubleIt;
    }
    return sum % 10 == 0;
  }

  static boolean expired(int month, int year) {
    return YearMonth.of(year, month).isBefore(YearMonth.now());
  }

  /** The {@code card} hash of a PaymentMethod for this number. */
  static JsonObject card(String number, int month, int year) {
    String brand = number.startsWith("4") ? "visa" : number.startsWith("5") ? "mastercard"
        : number.startsWith("3") ? "amex" : "unknown";
    return new JsonObject()
        .put("brand", brand)
        .put("country", "US")
        .put("exp_month", month)
        .put("exp_year", year)
        .put("funding", "credit")
        .put("last4", number.substring(number.length() - 4));
  }

  /** The card number a sandbox PaymentMethod was made from (kept privately, never answered). */
  static String numberOf(JsonObject paymentMethod) {
    JsonObject hidden = paymentMethod.getJsonObject(Objects.PRIVATE);
    return hidden == null ? VISA : hidden.getString("number", VISA);
  }
}
