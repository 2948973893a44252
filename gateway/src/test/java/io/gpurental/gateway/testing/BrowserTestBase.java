package io.gpurental.gateway.testing;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * One gateway node (from {@link GatewayTest}; a subclass annotated with its own
 * {@code @GatewayTest(settings = ...)} gets those settings) and one headless Chromium for all
 * tests of a browser test class.
 */
@GatewayTest
public abstract class BrowserTestBase {
  protected static TestGateway node;
  protected static Browser browser;

  @BeforeAll
  static void startBrowser(TestGateway gateway) {
    node = gateway;
    browser = new Browser();
  }

  @AfterAll
  static void stopBrowser() {
    if (browser != null) {
      browser.close();
    }
  }
}
