package io.gpurental.gateway.pricing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gpurental.gateway.config.PricingConfig;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The pricing formula on fixed cases; amounts in cents. */
class PriceCalculatorTest {
  private static PriceCalculator calculator(int feeBps, int taxBps) {
    return new PriceCalculator(PriceTerms.fromConfig(new PricingConfig("usd", feeBps, taxBps,
        List.of(new PricingConfig.DurationDiscount(24, 500), new PricingConfig.DurationDiscount(168, 1500)),
        Duration.ofMinutes(15), "k".repeat(32), 720, Duration.ofSeconds(5), Duration.ofMinutes(15)), 1000));
  }

  @Test
  void belowTheFirstThresholdThereIsNoDiscount() {
    PriceBreakdown price = calculator(300, 0).price(199, "usd", 1, 23);
    assertEquals(List.of("base", "platform_fee"), kinds(price));
    assertEquals(4577, amount(price, "base"));
    assertEquals(137, amount(price, "platform_fee")); // 137.31 rounds down
    assertEquals(4714, price.total().amount());
  }

  @Test
  void twentyFourHoursEarnFivePercent() {
    PriceBreakdown price = calculator(300, 0).price(199, "usd", 1, 24);
    assertEquals(4776, amount(price, "base"));
    assertEquals(-239, amount(price, "duration_discount")); // 238.8 rounds up
    assertEquals(136, amount(price, "platform_fee"));       // 3 % of 4537 = 136.11
    assertEquals(4673, price.total().amount());
    assertEquals(195, price.allInPerGpuHour().amount());    // 4673 / 24 = 194.7
  }

  @Test
  void aWeekEarnsFifteenPercentAndTaxComesOnTop() {
    PriceBreakdown price = calculator(300, 2000).price(199, "usd", 2, 168);
    assertEquals(66864, amount(price, "base"));
    assertEquals(-10030, amount(price, "duration_discount")); // 10 029.6
    assertEquals(1705, amount(price, "platform_fee"));        // 3 % of 56 834 = 1 705.02
    assertEquals(11708, amount(price, "tax"));                // 20 % of 58 539 = 11 707.8
    assertEquals(70247, price.total().amount());
  }

  @Test
  void halvesRoundUpAndItemsAlwaysAddUpToTheTotal() {
    PriceBreakdown price = calculator(300, 0).price(25, "usd", 2, 1);
    assertEquals(2, amount(price, "platform_fee")); // 3 % of 50 = 1.5
    for (int hours = 1; hours <= 200; hours += 7) {
      PriceBreakdown p = calculator(275, 1900).price(37, "usd", 3, hours);
      assertEquals(p.total().amount(), p.items().stream().mapToLong(i -> i.amount().amount()).sum(), "hours " + hours);
    }
  }

  private static List<String> kinds(PriceBreakdown price) {
    return price.items().stream().map(PriceItem::kind).toList();
  }

  private static long amount(PriceBreakdown price, String kind) {
    return price.items().stream().filter(i -> i.kind().equals(kind)).findFirst().orElseThrow().amount().amount();
  }
}
