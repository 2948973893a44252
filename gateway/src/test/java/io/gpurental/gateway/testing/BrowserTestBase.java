package io.gpurental.gateway.testing;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** One gateway node and one headless Chromium for all tests of a browser test class. */
public abstract class BrowserTestBase {
  protected static TestGateway node;
  protected static Browser browser;

  @BeforeAll
  static void startNodeAndBrowser() {
    node = TestGateway.start();
    browser = new Browser();
  }

  @AfterAll
  static void stopNodeAndBrowser() {
    if (browser != null) {
      browser.close();
    }
    if (node != null) {
      node.close();
    }
  }
}
