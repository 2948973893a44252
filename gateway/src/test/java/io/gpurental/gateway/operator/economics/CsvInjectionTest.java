package io.gpurental.gateway.operator.economics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Names an operator typed never run as spreadsheet formulas in the economics CSV. */
class CsvInjectionTest {
  @Test
  void textStartingLikeAFormulaGetsAnApostrophe() {
    for (String formula : new String[] {"=HYPERLINK(\"http://x\")", "+1+1", "-2+3", "@SUM(A1)", "\tx", "\rx"}) {
      assertEquals("'" + formula, EconomicsJson.neutralised(formula));
    }
  }

  @Test
  void ordinaryTextIsUnchanged() {
    assertEquals("nyc-h100-01", EconomicsJson.neutralised("nyc-h100-01"));
    assertEquals("", EconomicsJson.neutralised(""));
  }
}
