package io.gpurental.gateway.webui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.BrowserTestBase;
import io.gpurental.gateway.testing.Eventually;
import io.gpurental.gateway.testing.FakeAgent;
import io.gpurental.gateway.testing.GatewayTest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Fleet III in the browser: the operator publishes and retires an image template and allows a
 * registry; a renter sees which templates the host has cached, reserves with Jupyter and its
 * port, and sees the published port beside SSH once the host reports it running.
 */
@GatewayTest(settings = "GATEWAY_RESERVATIONS_SCHEDULER_INTERVAL_MS=200")
class ImagesBrowserTest extends BrowserTestBase {
  private static final String SSH_KEY =
      "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGrce7hzXfWyWoky9u8TUrZmcvp3RfrMOUNmPmLNA1Tc me@laptop";

  @BeforeEach
  void signedOut() {
    browser.driver().get(node.url("/"));
    browser.driver().manage().deleteAllCookies();
    browser.consoleErrors();
  }

  @Test
  void theOperatorPublishesAndRetiresATemplateAndAllowsARegistry() throws Exception {
    WebDriverWait wait = new WebDriverWait(browser.driver(), Duration.ofSeconds(20));
    WebDriver driver = browser.driver();
    signIn("/operator/images", "operator");
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#image-templates tr[data-image='img_demo_jupyter']")));

    driver.findElement(By.id("image-name")).sendKeys("TensorFlow 2.18");
    driver.findElement(By.id("image-ref")).sendKeys("ghcr.io/acme/tensorflow:2.18");
    driver.findElement(By.id("image-submit")).click();
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("image-error"), "pinned by digest"));
    WebElement ref = driver.findElement(By.id("image-ref"));
    ref.clear();
    ref.sendKeys("ghcr.io/acme/tensorflow:2.18@sha256:" + "7e".repeat(32));
    driver.findElement(By.id("image-description")).sendKeys("TensorFlow 2.18 with TensorBoard on 6006.");
    driver.findElement(By.id("image-ports")).sendKeys("6006");
    driver.findElement(By.id("image-submit")).click();
    WebElement row = wait.until(driver1 -> driver1.findElements(By.cssSelector("#image-templates tbody tr")).stream()
        .filter(r -> r.getText().contains("TensorFlow 2.18")).findFirst().orElse(null));
    assertTrue(row.getText().contains("6006"), row.getText());

    WebElement registries = driver.findElement(By.id("registries"));
    registries.clear();
    registries.sendKeys("ghcr.io/acme, nvcr.io");
    driver.findElement(By.id("registries-submit")).click();
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("registries-saved")));
    scrollTo(driver.findElement(By.id("images-title")));
    screenshot("operator-images.png");
    scrollTo(driver.findElement(By.id("registries-form")));
    screenshot("operator-images-forms.png");

    String id = row.getAttribute("data-image");
    driver.findElement(By.cssSelector("button[data-retire='" + id + "']")).click();
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("#image-templates tr[data-image='"
        + id + "']"), "retired"));
    assertEquals(List.of("ghcr.io/acme", "nvcr.io"),
        List.of(node.sql("SELECT allowed_registries FROM image_settings").iterator().next().getArrayOfStrings(0)));
    assertTrue(node.sql("SELECT retired_at IS NOT NULL FROM image_templates WHERE id = '" + id + "'").iterator().next()
        .getBoolean(0));
    // the one refused (unpinned) template is the only error the page met
    assertEquals(List.of(), browser.consoleErrors().stream()
        .filter(e -> !(e.contains("/api/v1/operator/images") && e.contains("400"))).toList());
  }

  @Test
  void aRenterPicksJupyterSeesWhatIsCachedAndThenThePublishedPort() throws Exception {
    WebDriverWait wait = new WebDriverWait(browser.driver(), Duration.ofSeconds(30));
    WebDriver driver = browser.driver();
    signIn("/catalog/off_osl_5090_01", "alice");
    WebElement images = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("offer-images")));
    assertTrue(driver.findElement(By.id("offer-hardware")).getText().contains("Isolation"));
    assertEquals("true", images.findElement(By.cssSelector("tr[data-image='img_demo_jupyter']")).getAttribute("data-cached"));
    assertTrue(driver.findElement(By.id("offer-hardware")).getText().contains("isolated container"));
    scrollTo(images);
    screenshot("offer-images.png");

    wait.until(ExpectedConditions.elementToBeClickable(By.id("get-quote"))).click();
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("quote-total")));
    wait.until(ExpectedConditions.elementToBeClickable(By.id("reserve"))).click();
    WebElement key = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("reserve-ssh-key")));
    key.clear();
    key.sendKeys(SSH_KEY);
    Select image = new Select(wait.until(ExpectedConditions.elementToBeClickable(By.id("reserve-image"))));
    image.selectByValue("img_demo_jupyter");
    wait.until(ExpectedConditions.attributeToBe(By.id("reserve-ports"), "value", "8888"));
    scrollTo(driver.findElement(By.id("reserve-image")));
    screenshot("reserve-form-image.png");
    driver.findElement(By.id("confirm-reserve")).click();
    wait.until(ExpectedConditions.urlContains("/reservations/rsv_"));
    String id = driver.getCurrentUrl().replaceAll(".*/reservations/(rsv_[A-Za-z0-9]+).*", "$1");
    var stored = node.sql("SELECT image_template_id, image_ports FROM reservations WHERE id = '" + id + "'")
        .iterator().next();
    assertEquals("img_demo_jupyter", stored.getString(0));
    assertEquals(List.of(8888), List.of(stored.getArrayOfIntegers(1)));

    driver.get(node.url("/catalog"));
    WebElement card = wait.until(driver1 -> driver1.findElements(By.cssSelector(".offer-card")).stream()
        .filter(c -> c.getText().contains("RTX 5090")).findFirst().orElse(null));
    assertTrue(card.findElement(By.className("offer-card__isolation")).getText().contains("Own container"));
    scrollTo(card);
    screenshot("catalog-card-isolation.png");

    // a host of a fake agent runs a Jupyter reservation of the same renter and publishes 8888
    ApiClient operator = ApiClient.signIn(node, "operator");
    ApiClient renter = ApiClient.signIn(node, "alice");
    FakeAgent agent = FakeAgent.activeHost(node, operator, "NVIDIA H100 80GB HBM3", 2, 250);
    String offerId = operator.json("/api/v1/operator/hosts/" + agent.hostId()).getJsonArray("offers").getString(0);
    renter.saveCard("4242424242424242");
    HttpResponse<String> created = renter.post("/api/v1/reservations", ApiClient.reservationRequest(offerId, 1, null, 1,
        "saved_card").put("image", "img_demo_jupyter"));
    assertEquals(201, created.statusCode(), created.body());
    String running = new JsonObject(created.body()).getString("id");
    JsonObject instance = Eventually.eventually("the instance in the desired state", agent::desiredStateNow,
        state -> state.getJsonArray("instances").size() == 1).getJsonArray("instances").getJsonObject(0);
    assertEquals(204, agent.report(running, FakeAgent.running(instance.getString("user"), 22017).put("ports",
        new JsonArray().add(new JsonObject().put("container_port", 8888).put("host_port", 30017)))).statusCode());
    renter.awaitStatus(running, "running");

    driver.get(node.url("/reservations/" + running));
    WebElement ports = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("published-ports")));
    assertTrue(ports.getText().contains("203.0.113.7:30017"), ports.getText());
    assertTrue(driver.findElement(By.id("ssh-command")).getText().contains("ssh -p 22017"));
    scrollTo(driver.findElement(By.id("ssh-access")));
    screenshot("reservation-ports.png");
    assertEquals(List.of(), browser.consoleErrors());
  }

  @Test
  void theOfferPageShowsReadyTimesPerImageAndWhatTheHostCannotRun() throws Exception {
    WebDriverWait wait = new WebDriverWait(browser.driver(), Duration.ofSeconds(30));
    WebDriver driver = browser.driver();
    ApiClient operator = ApiClient.signIn(node, "operator");
    HttpResponse<String> future = operator.post("/api/v1/operator/images", new JsonObject().put("name", "Future CUDA")
        .put("ref", "ghcr.io/acme/future@sha256:" + "9f".repeat(32)).put("min_driver_version", "560.28")
        .put("min_cuda_version", "12.6"));
    assertEquals(201, future.statusCode(), future.body());
    String futureId = new JsonObject(future.body()).getString("id");
    // a fake agent's host: driver 550.54.15, CUDA 12.4; PyTorch started cached 3 times and pulled twice
    FakeAgent agent = FakeAgent.activeHost(node, operator, "NVIDIA H100 80GB HBM3", 2, 250);
    String offerId = operator.json("/api/v1/operator/hosts/" + agent.hostId()).getJsonArray("offers").getString(0);
    String pytorch = node.sql("SELECT ref FROM image_templates WHERE id = 'img_demo_pytorch'").iterator().next()
        .getString(0);
    int n = 0;
    for (int[] start : new int[][] {{8, 0}, {12, 0}, {20, 0}, {140, 1}, {260, 1}}) {
      node.sql("INSERT INTO instances (reservation_id, host_id, gpu_indexes, ssh_public_key, unix_user, ends_at,"
          + " due_at, running_at, image_ref, pull_bytes_done) VALUES ('rsv_shot_" + (++n) + "', '" + agent.hostId()
          + "', '{0}', 'k', 'u', now(), now() - interval '1 hour' - interval '" + start[0] + " seconds',"
          + " now() - interval '1 hour', '" + pytorch + "', " + (start[1] == 1 ? "0" : "NULL") + ")");
    }

    node.sql("INSERT INTO host_images (host_id, ref, digest, size_bytes) VALUES ('" + agent.hostId() + "', '" + pytorch
        + "', '" + pytorch.replaceFirst("^.*@", "") + "', 9000000000)");

    signIn("/catalog/" + offerId, "alice");
    WebElement images = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("offer-images")));
    WebElement row = images.findElement(By.cssSelector("tr[data-image='img_demo_pytorch']"));
    assertTrue(row.findElement(By.cssSelector("td[data-ready='cached']")).getText().contains("12 sec"), row.getText());
    // pulled: 140, 260 s: the median 200 s reads "3 min"
    assertTrue(row.findElement(By.cssSelector("td[data-ready='uncached']")).getText().contains("3 min"), row.getText());
    WebElement unavailable = images.findElement(By.cssSelector("tr[data-image='" + futureId + "']"));
    assertEquals("false", unavailable.getAttribute("data-available"));
    assertTrue(unavailable.getText().contains("560.28") && unavailable.getText().contains("550.54.15"),
        unavailable.getText());
    scrollTo(images);
    screenshot("offer-images-ready-times.png");

    wait.until(ExpectedConditions.elementToBeClickable(By.id("get-quote"))).click();
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("quote-total")));
    wait.until(ExpectedConditions.elementToBeClickable(By.id("reserve"))).click();
    WebElement picker = wait.until(ExpectedConditions.elementToBeClickable(By.id("reserve-image")));
    WebElement futureOption = picker.findElement(By.cssSelector("option[value='" + futureId + "']"));
    assertEquals("true", futureOption.getAttribute("disabled"), "a template the host cannot run is not offered");
    assertTrue(driver.findElement(By.id("reserve-image-hint")).getText().contains("Ready in ~12 sec (p95 19 sec)"),
        driver.findElement(By.id("reserve-image-hint")).getText());
    assertTrue(driver.findElement(By.id("reserve-image-unavailable")).getText().contains("560.28"));
    scrollTo(picker);
    screenshot("reserve-form-images.png");
    assertEquals(200, operator.delete("/api/v1/operator/images/" + futureId).statusCode());
    assertEquals(List.of(), browser.consoleErrors());
  }

  private void signIn(String returnTo, String login) {
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

  /** Kept under target/ to look at (the page as Chromium rendered it). */
  private static void screenshot(String name) throws Exception {
    Path file = Path.of("target", "screenshots", name);
    Files.createDirectories(file.getParent());
    Files.write(file, browser.driver().getScreenshotAs(OutputType.BYTES));
  }
}
