package io.gpurental.gateway.pricing;

import io.gpurental.gateway.platform.Money;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The pricing formula, in integer minor units:
 * <pre>
 * base     = rate per GPU-hour × GPUs × hours
 * discount = round(base × duration discount bps / 10 000)       (largest threshold reached)
 * fee      = round((base − discount) × platform fee bps / 10 000)
 * tax      = round((base − discount + fee) × tax bps / 10 000)
 * total    = base − discount + fee + tax
 * </pre>
 * Each rounding is half-up to a whole minor unit, so the items always add up to the total. The
 * rates are the {@link PriceTerms} in force when the price is asked for.
 */
public final class PriceCalculator {
  private static final BigDecimal BPS = BigDecimal.valueOf(10_000);
  private final PriceTerms terms;

  public PriceCalculator(PriceTerms terms) {
    this.terms = terms;
  }

  public PriceBreakdown price(long ratePerGpuHour, String currency, int gpus, int hours) {
    long base = Math.multiplyExact(Math.multiplyExact(ratePerGpuHour, (long) gpus), (long) hours);
    int discountBps = terms.discountBpsFor(hours);
    long discount = share(base, discountBps);
    long fee = share(base - discount, terms.platformFeeBps());
    long tax = share(base - discount + fee, terms.taxBps());
    long total = base - discount + fee + tax;

    List<PriceItem> items = new ArrayList<>();
    items.add(new PriceItem("base", gpus + (gpus == 1 ? " GPU" : " GPUs") + " × " + hours + " h × "
        + decimal(ratePerGpuHour) + " " + currency.toUpperCase(Locale.ROOT) + " per GPU-hour",
        new Money(base, currency)));
    if (discount > 0) {
      items.add(new PriceItem("duration_discount", percent(discountBps) + " off for " + hours + " h or more",
          new Money(-discount, currency)));
    }
    if (fee > 0) {
      items.add(new PriceItem("platform_fee", "Platform fee " + percent(terms.platformFeeBps()), new Money(fee, currency)));
    }
    if (tax > 0) {
      items.add(new PriceItem("tax", "Tax " + percent(terms.taxBps()), new Money(tax, currency)));
    }
    long perGpuHour = BigDecimal.valueOf(total)
        .divide(BigDecimal.valueOf((long) gpus * hours), 0, RoundingMode.HALF_UP).longValueExact();
    return new PriceBreakdown(List.copyOf(items), new Money(total, currency), new Money(perGpuHour, currency));
  }

  private static long share(long amount, int bps) {
    return BigDecimal.valueOf(amount).multiply(BigDecimal.valueOf(bps))
        .divide(BPS, 0, RoundingMode.HALF_UP).longValueExact();
  }

  private static String decimal(long minor) {
    return BigDecimal.valueOf(minor, 2).toPlainString();
  }

  private static String percent(int bps) {
    return BigDecimal.valueOf(bps, 2).stripTrailingZeros().toPlainString() + " %";
  }
}
