package io.gpurental.gateway.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInfo;

/**
 * One gateway node and one headless Chromium for all tests of a browser test class. A class
 * annotated with {@link GatewaySettings} gets those settings on top of {@link TestGateway#settings()}.
 */
public abstract class BrowserTestBase {
  protected static TestGateway node;
  protected static Browser browser;

  /** Extra gateway settings for the node of a browser test class, each as {@code GATEWAY_NAME=value}. */
  @Retention(RetentionPolicy.RUNTIME)
  @Target(ElementType.TYPE)
  @Inherited
  public @interface GatewaySettings {
    String[] value();
  }

  @BeforeAll
  static void startNodeAndBrowser(TestInfo test) {
    Map<String, String> settings = TestGateway.settings();
    test.getTestClass().map(type -> type.getAnnotation(GatewaySettings.class)).ifPresent(extra -> {
      for (String setting : extra.value()) {
        int at = setting.indexOf('=');
        if (at <= 0) {
          throw new IllegalArgumentException("expected GATEWAY_NAME=value, got " + setting);
        }
        settings.put(setting.substring(0, at), setting.substring(at + 1));
      }
    });
    node = TestGateway.start(settings);
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
