package io.gpurental.gateway.webui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.BrowserTestBase;
import io.gpurental.gateway.testing.FakeAgent;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The operator enrols a host in Chromium: the one-time agent command is shown, the agent enrols, the
 * host is activated; a container host's isolation warnings show beside its status.
 */
class HostsBrowserTest extends BrowserTestBase {
  @BeforeEach
  void signedOut() {
    browser.driver().get(node.url("/"));
    browser.driver().manage().deleteAllCookies();
    browser.consoleErrors();
  }

  @Test
  void enrolShowsTheTokenOnceAndTheHostCanBeActivated() throws Exception {
    WebDriverWait wait = new WebDriverWait(browser.driver(), Duration.ofSeconds(20));
    browser.driver().get(node.url("/operator/hosts"));
    wait.until(ExpectedConditions.elementToBeClickable(By.id("operator-signin"))).click();
    wait.until(ExpectedConditions.elementToBeClickable(By.id("signin-github"))).click();
    wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("button[name='login'][value='operator']"))).click();
    wait.until(ExpectedConditions.urlToBe(node.url("/operator/hosts")));
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("nav-operator")));

    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("host-name"))).sendKeys("fra-h100-02");
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("host-site"), "Frankfurt 1"));
    new org.openqa.selenium.support.ui.Select(browser.driver().findElement(By.id("host-site")))
        .selectByVisibleText("Frankfurt 1 (eu-central)");
    browser.driver().findElement(By.id("host-address")).sendKeys("203.0.113.7");
    browser.driver().findElement(By.id("enrol-submit")).click();

    WebElement command = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("enrolment-secret")));
    String text = command.getAttribute("value");
    assertTrue(text.matches("GPR_AGENT_ENROLLMENT_TOKEN=gpr_enr_[A-Za-z0-9]{38} java -jar gpu-host-agent\\.jar --gateway "
        + java.util.regex.Pattern.quote(node.url("")) + " --state-dir /var/lib/gpu-host-agent"), text);
    WebElement row = wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("tr[data-status='enrolling']")));
    assertTrue(row.getText().contains("fra-h100-02"), row.getText());
    screenshot("hosts-enrol.png");

    String lost = tokenIn(text);
    browser.driver().findElement(By.id("enrolment-done")).click();
    // the command was lost before the agent ran: a new token replaces it
    String hostId = row.getAttribute("id").substring("host-".length());
    wait.until(ExpectedConditions.elementToBeClickable(By.id("reissue-" + hostId))).click();
    WebElement reissued = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("enrolment-secret")));
    assertTrue(browser.driver().findElement(By.id("enrolment-heading")).getText().contains("New enrolment token for fra-h100-02"));
    String newCommand = reissued.getAttribute("value");
    screenshot("hosts-reissue.png");
    String token = tokenIn(newCommand);
    assertNotEquals(lost, token);
    assertEquals(401, FakeAgent.tryEnrol(node, lost, "NVIDIA H100 80GB HBM3", 8).statusCode(), "the lost token is void");
    FakeAgent agent = FakeAgent.enrol(node, token, "NVIDIA H100 80GB HBM3", 8);
    assertEquals(hostId, agent.hostId());
    browser.driver().findElement(By.id("enrolment-done")).click();
    browser.driver().navigate().refresh();
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("price-" + agent.hostId()))).sendKeys("2.49");
    browser.driver().findElement(By.id("activate-" + agent.hostId())).click();
    wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#host-" + agent.hostId() + "[data-status='active']")));
    // its row: the demo fleet's nyc-h100-01 is 8 × H100 SXM too
    WebElement active = browser.driver().findElement(By.id("host-" + agent.hostId()));
    assertTrue(active.getText().contains("8 × H100 SXM"), active.getText());
    screenshot("hosts-active.png");
    assertEquals(249L, node.sql("SELECT p.amount_per_gpu_hour FROM prices p JOIN offers o ON o.id = p.offer_id"
        + " WHERE o.host_id = '" + agent.hostId() + "'").iterator().next().getLong(0));
    assertEquals(List.of(), browser.consoleErrors());
  }

  /**
   * What a container host cannot promise (the agent's {@code container_isolation} facts: Docker
   * without user namespaces, no disk limit) is a warning in the host's row of the Hosts page and on
   * the host's own page; a host that promises both shows none.
   */
  @Test
  void aContainerHostsIsolationWarningsAreShownWithItsStatus() throws Exception {
    ApiClient operator = ApiClient.signIn(node, "operator");
    String noUserns = "Docker runs without user namespaces (no userns-remap): a renter's root in a container is root"
        + " on this host. The agent was started with --allow-docker-without-userns.";
    FakeAgent docker = FakeAgent.enrol(node, FakeAgent.createHost(operator).getString("enrollment_token"),
        containerFacts(new JsonObject().put("user_namespaces", false).put("disk_limit", true)
            .put("warnings", new JsonArray().add(noUserns))));
    FakeAgent podman = FakeAgent.enrol(node, FakeAgent.createHost(operator).getString("enrollment_token"),
        containerFacts(new JsonObject().put("user_namespaces", true).put("disk_limit", true)
            .put("warnings", new JsonArray())));

    WebDriverWait wait = new WebDriverWait(browser.driver(), Duration.ofSeconds(20));
    browser.driver().get(node.url("/operator/hosts"));
    wait.until(ExpectedConditions.elementToBeClickable(By.id("operator-signin"))).click();
    wait.until(ExpectedConditions.elementToBeClickable(By.id("signin-github"))).click();
    wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("button[name='login'][value='operator']"))).click();
    wait.until(ExpectedConditions.urlToBe(node.url("/operator/hosts")));
    WebElement warning = wait.until(ExpectedConditions.visibilityOfElementLocated(
        By.id("isolation-" + docker.hostId() + "-0")));
    assertEquals(noUserns, warning.getText());
    assertTrue(warning.getAttribute("class").contains("host-warning"), warning.getAttribute("class"));
    WebElement row = browser.driver().findElement(By.id("host-" + docker.hostId()));
    assertTrue(row.findElements(By.className("host-warning")).contains(warning), "in the host's own row");
    assertEquals(0, browser.driver().findElement(By.id("host-" + podman.hostId()))
        .findElements(By.className("host-warning")).size(), "no warning where everything holds");
    ((org.openqa.selenium.JavascriptExecutor) browser.driver()).executeScript("arguments[0].scrollIntoView()", row);
    screenshot("hosts-isolation-warning.png");

    browser.driver().get(node.url("/operator/hosts/" + docker.hostId()));
    WebElement summary = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("host-summary")));
    wait.until(ExpectedConditions.textToBePresentInElement(summary, "without user namespaces"));
    assertEquals(List.of(), browser.consoleErrors());
  }

  private static JsonObject containerFacts(JsonObject isolation) {
    return FakeAgent.facts("NVIDIA H100 80GB HBM3", 2).put("runtime", "container")
        .put("container_toolkit_version", "1.17.8").put("engine", "docker 27.1.0")
        .put("container_isolation", isolation);
  }

  /** Kept under target/ to look at (the page as Chromium rendered it). */
  private static void screenshot(String name) throws Exception {
    Path file = Path.of("target", "screenshots", name);
    Files.createDirectories(file.getParent());
    Files.write(file, browser.driver().getScreenshotAs(OutputType.BYTES));
  }

  /** The token the command sets: {@code GPR_AGENT_ENROLLMENT_TOKEN=gpr_enr_… java -jar …}. */
  private static String tokenIn(String command) {
    String from = command.substring(command.indexOf("gpr_enr_"));
    return from.substring(0, from.indexOf(' '));
  }
}
