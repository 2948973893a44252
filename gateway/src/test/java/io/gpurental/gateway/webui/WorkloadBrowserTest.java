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
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * "What do you want to run?": a visitor serves Llama 3.1 70B to 8 users at once, sees the offers
 * that hold it with their fit, narrows them with a filter, opens one and finds the fit and the
 * GPU count there; bad and impossible workloads are explained.
 */
class WorkloadBrowserTest extends BrowserTestBase {
  @Test
  void chooseByWorkloadThenFilterAndOpenAnOffer() throws Exception {
    WebDriverWait wait = new WebDriverWait(browser.driver(), Duration.ofSeconds(20));
    browser.driver().get(node.url("/catalog"));
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("workload-heading"), "What do you want to run?"));
    Select preset = new Select(wait.until(ExpectedConditions.elementToBeClickable(By.id("workload-preset"))));
    wait.until(driver -> preset.getOptions().size() > 6);
    preset.selectByValue("llm-inference");
    new Select(wait.until(ExpectedConditions.elementToBeClickable(By.id("workload-param-model")))).selectByValue("llama-3.1-70b");
    assertEquals("70.6B parameters, 80 layers, 8 KV heads × 128; up to 131,072 tokens.",
        browser.driver().findElement(By.id("workload-param-model-hint")).getText(), "the named architecture's figures");
    type("workload-param-sequences", "8");
    browser.driver().findElement(By.id("workload-apply")).click();

    wait.until(ExpectedConditions.urlContains("workload=llm-inference"));
    List<WebElement> cards = wait.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector(".offer-card"), 4));
    assertEquals("off_fra_l40s_01", cards.get(0).getAttribute("data-offer-id"), "cheapest in all first");
    assertTrue(cards.get(0).findElement(By.cssSelector(".offer-card__fit")).getText()
        .startsWith("4 × L40S: 192 GB for 141 GB of weights and 21 GB of KV cache at 8k context × 8 sequences"));
    WebElement summary = browser.driver().findElement(By.id("workload-summary"));
    assertTrue(summary.getText().contains("needs 178.9 GB of VRAM"), summary.getText());
    browser.driver().executeScript("arguments[0].scrollIntoView()", summary);
    screenshot("workload-catalog.png");

    WebElement region = browser.driver().findElement(By.id("filter-region"));
    region.clear();
    region.sendKeys("eu-central");
    browser.driver().findElement(By.id("apply-filters")).click();
    wait.until(ExpectedConditions.urlContains("region=eu-central"));
    cards = wait.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector(".offer-card"), 2));
    assertTrue(browser.driver().getCurrentUrl().contains("model=llama-3.1-70b"), "the workload stays with the filters");

    WebElement a100 = cards.stream().filter(card -> "off_fra_a100_01".equals(card.getAttribute("data-offer-id")))
        .findFirst().orElseThrow();
    a100.findElement(By.linkText("View offer")).click();
    wait.until(ExpectedConditions.urlContains("/catalog/off_fra_a100_01"));
    WebElement fit = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("offer-fit-sentence")));
    assertTrue(fit.getText().startsWith("4 × A100 80GB: 320 GB for 141 GB of weights"), fit.getText());
    Select count = new Select(wait.until(ExpectedConditions.elementToBeClickable(By.id("quote-gpu-count"))));
    assertEquals("4", count.getFirstSelectedOption().getAttribute("value"), "the quote starts at the fitting count");
    screenshot("workload-offer.png");
    assertEquals(List.of(), browser.consoleErrors());
  }

  @Test
  void badParametersAreShownAtTheirFieldAndAnImpossibleWorkloadSaysWhatItNeeds() throws Exception {
    WebDriverWait wait = new WebDriverWait(browser.driver(), Duration.ofSeconds(20));
    browser.driver().get(node.url("/catalog?workload=llm-inference&model=llama-3.1-8b"));
    wait.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector(".offer-card"), 6));
    type("workload-param-context", "64");
    browser.driver().findElement(By.id("workload-apply")).click();
    WebElement error = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("workload-param-context-error")));
    assertTrue(error.getText().contains("from 128 to 1048576"), error.getText());

    new Select(browser.driver().findElement(By.id("workload-param-model"))).selectByValue("deepseek-v3");
    type("workload-param-context", "8192");
    browser.driver().findElement(By.id("workload-apply")).click();
    WebElement unmet = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("workload-unmet")));
    assertTrue(unmet.getText().startsWith("Needs 1,477 GB of VRAM in all"), unmet.getText());
    assertTrue(unmet.getText().endsWith("8 × H200 with 1,128 GB."), unmet.getText());
    assertEquals(0, browser.driver().findElements(By.cssSelector(".offer-card")).size());
    screenshot("workload-unmet.png");
    List<String> errors = browser.consoleErrors();
    assertTrue(!errors.isEmpty() && errors.stream().allMatch(line -> line.contains("status of 400")),
        "only the refused context, logged by the browser: " + errors);
  }

  private static void type(String id, String text) {
    WebElement input = browser.driver().findElement(By.id(id));
    input.clear();
    input.sendKeys(text);
  }

  /** Kept under target/ for a person to look at; not compared. */
  private static void screenshot(String name) throws Exception {
    Path dir = Path.of("target", "screenshots");
    Files.createDirectories(dir);
    Files.write(dir.resolve(name), browser.driver().getScreenshotAs(OutputType.BYTES));
  }
}
