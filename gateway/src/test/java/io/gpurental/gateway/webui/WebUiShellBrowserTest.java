package io.gpurental.gateway.webui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.BrowserTestBase;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/** The web UI shell, loaded in a real browser from the real gateway. */
class WebUiShellBrowserTest extends BrowserTestBase {
  @Test
  void shellHasHeaderNavigationSandboxBannerAndNoConsoleErrors() {
    browser.driver().get(node.url("/"));
    WebDriverWait wait = new WebDriverWait(browser.driver(), Duration.ofSeconds(15));

    WebElement header = wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("header.site-header")));
    assertTrue(header.getText().contains("GPU Rental Gateway"), header.getText());
    List<String> navigation = browser.driver().findElements(By.cssSelector("nav[aria-label='Main'] a"))
        .stream().map(WebElement::getText).toList();
    assertEquals(List.of("Catalog", "Reservations", "Account"), navigation, "Operator is shown to operators only");

    WebElement banner = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("sandbox-banner")));
    assertTrue(banner.getText().contains("Sandbox mode"), banner.getText());
    WebElement version = wait.until(ExpectedConditions.presenceOfElementLocated(By.id("build-version")));
    wait.until(ExpectedConditions.textToBePresentInElement(version, "0.1.0"));
    WebElement footer = browser.driver().findElement(By.id("site-footer"));
    assertTrue(footer.findElement(By.linkText("API docs")).getAttribute("href").endsWith("/docs"));

    assertEquals(List.of(), browser.consoleErrors());
  }

  @Test
  void navigationMarksTheCurrentPage() {
    browser.driver().get(node.url("/"));
    WebDriverWait wait = new WebDriverWait(browser.driver(), Duration.ofSeconds(15));
    wait.until(ExpectedConditions.elementToBeClickable(By.linkText("Reservations"))).click();
    wait.until(ExpectedConditions.urlToBe(node.url("/reservations")));
    WebElement current = browser.driver().findElement(By.cssSelector("nav[aria-label='Main'] a[aria-current='page']"));
    assertEquals("Reservations", current.getText());
    assertTrue(browser.driver().findElement(By.tagName("h1")).getText().contains("Reservations"));
    assertEquals(List.of(), browser.consoleErrors());
  }

  @Test
  void docsPageRendersTheOpenApiContract() {
    browser.driver().get(node.url("/docs"));
    WebDriverWait wait = new WebDriverWait(browser.driver(), Duration.ofSeconds(20));
    WebElement title = wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".swagger-ui .info .title")));
    assertTrue(title.getText().contains("GPU Rental Gateway API"), title.getText());
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".swagger-ui"), "/version"));
    assertEquals(List.of(), browser.consoleErrors());
  }
}
