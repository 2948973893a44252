package io.gpurental.gateway.webui;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.deque.html.axecore.results.Rule;
import com.deque.html.axecore.selenium.AxeBuilder;
import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.BrowserTestBase;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Real axe-core (Deque's engine, through its Selenium binding) in the headless Chromium of the
 * other page tests, on every renter and operator page once it has loaded: no serious or critical
 * WCAG 2.1 A/AA violation (contrast, names, labels). The pages are checked one after another and
 * all findings reported together, so one run lists everything a page fix has to address.
 */
class AccessibilityBrowserTest extends BrowserTestBase {
  private static final Set<String> BLOCKING = Set.of("serious", "critical");
  private static final List<String> WCAG_AA = List.of("wcag2a", "wcag2aa", "wcag21a", "wcag21aa");

  @BeforeEach
  void signedOut() {
    browser.driver().get(node.url("/"));
    browser.driver().manage().deleteAllCookies();
  }

  @Test
  void operatorPagesHaveNoSeriousViolations() throws Exception {
    // a retired template too: its row is styled apart and must stay readable
    ApiClient operator = ApiClient.signIn(node, "operator");
    HttpResponse<String> published = operator.post("/api/v1/operator/images", new JsonObject()
        .put("name", "Old CUDA").put("ref", "ghcr.io/acme/old@sha256:" + "5a".repeat(32)));
    assertEquals(201, published.statusCode(), published.body());
    String retired = new JsonObject(published.body()).getString("id");
    assertEquals(200, operator.delete("/api/v1/operator/images/" + retired).statusCode());
    signIn("/operator/images", "operator");
    List<String> findings = new ArrayList<>();
    findings.addAll(check("/operator/images", "#image-templates tr[data-image='img_demo_jupyter']"));
    screenshot("a11y-operator-images.png");
    findings.addAll(check("/operator/hosts", "#hosts-heading"));
    findings.addAll(check("/operator/hosts/host_fra_l40s_01", "#host-heading"));
    findings.addAll(check("/operator/incidents", "#incidents-heading"));
    findings.addAll(check("/operator/prices", "#prices-heading"));
    findings.addAll(check("/operator/economics", "#economics-summary"));
    findings.addAll(check("/operator/reservations", "#admin-reservations-heading"));
    findings.addAll(check("/operator/accounts", "#accounts-heading"));
    findings.addAll(check("/operator/ledger", "#ledger-heading"));
    findings.addAll(check("/operator/audit", "#audit-heading"));
    assertEquals(List.of(), findings);
  }

  @Test
  void renterPagesHaveNoSeriousViolations() throws Exception {
    ApiClient renter = ApiClient.signIn(node, "alice");
    renter.saveCard("4242424242424242");
    String reservation = renter.reserve("off_fra_a100_01", 1, null, 2, "saved_card").getString("id");
    signIn("/catalog", "alice");
    List<String> findings = new ArrayList<>();
    findings.addAll(check("/", "main h1"));
    findings.addAll(check("/catalog", ".offer-card"));
    findings.addAll(check("/catalog/off_fra_a100_01", "#offer-images"));
    findings.addAll(check("/catalog/off_osl_4090_01", "#quote-hours-hint"));
    scrollTo(browser.driver().findElement(By.id("quote-form")));
    screenshot("a11y-offer-quote-form.png");
    findings.addAll(check("/reservations", ".reservation-row"));
    findings.addAll(check("/reservations/" + reservation, "#status"));
    findings.addAll(check("/payments", "main h1"));
    findings.addAll(check("/account", "#identity-list"));
    assertEquals(List.of(), findings);
  }

  /** Opens a page, waits until it has loaded its data, and lists its blocking axe violations. */
  private static List<String> check(String path, String loaded) {
    WebDriverWait wait = new WebDriverWait(browser.driver(), Duration.ofSeconds(30));
    browser.driver().get(node.url(path));
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(loaded)));
    wait.until(driver -> (Boolean) ((JavascriptExecutor) driver).executeScript(
        "return !/Loading[^\\n]*…/.test(document.querySelector('main').innerText)"
            + " && !document.querySelector('main [aria-busy=\"true\"]')"));
    List<Rule> violations = new AxeBuilder().withTags(WCAG_AA).analyze(browser.driver()).getViolations();
    return violations.stream()
        .filter(rule -> BLOCKING.contains(rule.getImpact()))
        .map(rule -> path + ": " + rule.getImpact() + " " + rule.getId() + " on " + rule.getNodes().stream()
            .map(node -> node.getTarget() + " (" + node.getFailureSummary().replace('\n', ' ') + ")")
            .collect(Collectors.joining("; ")))
        .toList();
  }

  private static void signIn(String returnTo, String login) {
    WebDriverWait wait = new WebDriverWait(browser.driver(), Duration.ofSeconds(20));
    browser.driver().get(node.url("/signin?return_to=" + returnTo));
    wait.until(ExpectedConditions.elementToBeClickable(By.id("signin-github"))).click();
    wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("button[name='login'][value='" + login + "']")))
        .click();
    wait.until(ExpectedConditions.urlContains(returnTo));
  }

  private static void scrollTo(WebElement element) {
    ((JavascriptExecutor) browser.driver()).executeScript("arguments[0].scrollIntoView({block: 'center'})", element);
  }

  /** Kept under target/ to look at: the page as Chromium rendered it. */
  private static void screenshot(String name) throws Exception {
    Path file = Path.of("target", "screenshots", name);
    Files.createDirectories(file.getParent());
    Files.write(file, browser.driver().getScreenshotAs(OutputType.BYTES));
  }
}
