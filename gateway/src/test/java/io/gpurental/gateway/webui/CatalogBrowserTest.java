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
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/** A visitor filters the catalog to H100 with at least 80 GB, opens the offer and gets a quote. */
class CatalogBrowserTest extends BrowserTestBase {
  @Test
  void filterOpenAnOfferAndGetAQuote() {
    WebDriverWait wait = new WebDriverWait(browser.driver(), Duration.ofSeconds(20));
    browser.driver().get(node.url("/catalog"));
    wait.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector(".offer-card"), 6));

    Select model = new Select(wait.until(ExpectedConditions.elementToBeClickable(By.id("filter-gpu-model"))));
    wait.until(driver -> model.getOptions().size() > 1);
    model.selectByValue("H100 SXM");
    WebElement minVram = browser.driver().findElement(By.id("filter-min-vram"));
    minVram.clear();
    minVram.sendKeys("80");
    browser.driver().findElement(By.id("apply-filters")).click();

    List<WebElement> cards = wait.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector(".offer-card"), 1));
    WebElement card = cards.get(0);
    assertEquals("off_nyc_h100_01", card.getAttribute("data-offer-id"));
    assertTrue(card.findElement(By.cssSelector(".savings-badge")).getText().contains("%"));
    assertTrue(browser.driver().getCurrentUrl().contains("min_vram_gb=80"), "filters are in the URL");

    card.findElement(By.linkText("View offer")).click();
    wait.until(ExpectedConditions.urlContains("/catalog/off_nyc_h100_01"));
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("availability")));

    new Select(wait.until(ExpectedConditions.elementToBeClickable(By.id("quote-gpu-count")))).selectByValue("2");
    WebElement hours = browser.driver().findElement(By.id("quote-hours"));
    hours.clear();
    hours.sendKeys("24");
    browser.driver().findElement(By.id("get-quote")).click();
    WebElement total = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("quote-total")));
    // 2 GPUs × 24 h × $1.99 = $95.52, −5 % = $90.74, +3 % fee = $93.46
    wait.until(ExpectedConditions.textToBePresentInElement(total, "93.46"));
    assertEquals(List.of(), browser.consoleErrors());
  }
}
