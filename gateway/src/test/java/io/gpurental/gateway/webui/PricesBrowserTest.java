package io.gpurental.gateway.webui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.BrowserTestBase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/** The operator changes an offer's price on the Prices page and the catalog shows the new all-in price. */
class PricesBrowserTest extends BrowserTestBase {
  @Test
  void anOperatorSetsAPriceAndTheCatalogShowsItAllIn() throws Exception {
    WebDriverWait wait = new WebDriverWait(browser.driver(), Duration.ofSeconds(20));
    WebDriver driver = browser.driver();
    driver.get(node.url("/operator/prices"));
    wait.until(ExpectedConditions.elementToBeClickable(By.id("operator-signin"))).click();
    wait.until(ExpectedConditions.elementToBeClickable(By.id("signin-github"))).click();
    wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("button[name='login'][value='operator']"))).click();
    wait.until(ExpectedConditions.urlToBe(node.url("/operator/prices")));

    WebElement row = wait.until(ExpectedConditions.visibilityOfElementLocated(
        By.cssSelector("#offer-prices tr[data-offer='off_osl_5090_01']")));
    assertTrue(row.findElement(By.className("price-now")).getText().contains("0.65"), row.getText());
    assertTrue(driver.findElement(By.id("reference-prices")).getText().contains("H100 SXM"));
    new Select(driver.findElement(By.id("price-target"))).selectByValue("off_osl_5090_01");
    driver.findElement(By.id("price-amount")).sendKeys("0.99");
    driver.findElement(By.id("price-submit")).click();
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("prices-notice"), "Price set"));
    wait.until(ExpectedConditions.textToBePresentInElementLocated(
        By.cssSelector("#offer-prices tr[data-offer='off_osl_5090_01'] .price-now"), "0.99"));
    screenshot("operator-prices.png");

    // all-in for 1 GPU × 1 h: 99 + 3 % platform fee (2.97 → 3) = 102
    driver.get(node.url("/catalog"));
    WebElement card = wait.until(driver1 -> driver1.findElements(By.cssSelector(".offer-card")).stream()
        .filter(c -> c.findElement(By.className("offer-card__title")).getText().contains("RTX 5090"))
        .findFirst().orElse(null));
    assertEquals("$1.02", card.findElement(By.className("offer-card__amount")).getText());
    ((org.openqa.selenium.JavascriptExecutor) driver).executeScript("arguments[0].scrollIntoView({block: 'center'})", card);
    screenshot("catalog-after-price-change.png");

    // the terms of sale: a 10 % platform fee makes it 99 + 9.9 (→ 10) = 109
    driver.get(node.url("/operator/prices"));
    WebElement fee = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("settings-fee")));
    fee.clear();
    fee.sendKeys("10");
    driver.findElement(By.id("settings-submit")).click();
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("settings-saved")));
    assertTrue(driver.findElement(By.id("settings-form")).getText().contains("platform fee 10"));
    driver.get(node.url("/catalog"));
    wait.until(driver1 -> driver1.findElements(By.cssSelector(".offer-card")).stream()
        .filter(c -> c.findElement(By.className("offer-card__title")).getText().contains("RTX 5090"))
        .anyMatch(c -> "$1.09".equals(c.findElement(By.className("offer-card__amount")).getText())));

    driver.get(node.url("/operator/audit"));
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("audit-target"))).sendKeys("off_osl_5090_01");
    driver.findElement(By.id("audit-apply")).click();
    WebElement audit = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("audit-table")));
    wait.until(ExpectedConditions.textToBePresentInElement(audit, "price.offer.set"));
    assertEquals("65", audit.findElement(By.cssSelector(".audit-before")).getText());
    assertEquals("99", audit.findElement(By.cssSelector(".audit-after")).getText());
    screenshot("operator-audit.png");
    driver.findElement(By.id("audit-clear")).click();
    wait.until(driver1 -> driver1.findElement(By.id("audit-status")).getText().matches("\\d+ entries( shown, more available)?\\."));
    assertEquals(List.of(), browser.consoleErrors());
  }

  /** Kept under target/ to look at (the page as Chromium rendered it). */
  private static void screenshot(String name) throws Exception {
    Path file = Path.of("target", "screenshots", name);
    Files.createDirectories(file.getParent());
    Files.write(file, browser.driver().getScreenshotAs(OutputType.BYTES));
  }
}
