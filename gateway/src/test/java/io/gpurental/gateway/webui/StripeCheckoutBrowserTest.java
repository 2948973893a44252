package io.gpurental.gateway.webui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.stripe.StripeClient;
import com.stripe.exception.StripeException;
import com.stripe.model.Customer;
import com.stripe.model.checkout.Session;
import com.stripe.param.CustomerCreateParams;
import com.stripe.param.EventListParams;
import com.stripe.param.PaymentMethodListParams;
import com.stripe.param.checkout.SessionCreateParams;
import io.gpurental.gateway.testing.BrowserTestBase;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/** The sandbox's hosted checkout page in Chromium: declines, 3-D Secure, success redirect, saving a card. */
class StripeCheckoutBrowserTest extends BrowserTestBase {
  private StripeClient stripe() {
    return StripeClient.builder().setApiKey(node.gateway().config().stripe().secretKey())
        .setApiBase(node.url("/sandbox/stripe")).build();
  }

  private Session paymentSession() throws StripeException {
    return stripe().checkout().sessions().create(SessionCreateParams.builder()
        .setMode(SessionCreateParams.Mode.PAYMENT)
        .setSuccessUrl(node.url("/reservations?session={CHECKOUT_SESSION_ID}"))
        .addLineItem(SessionCreateParams.LineItem.builder().setQuantity(2L)
            .setPriceData(SessionCreateParams.LineItem.PriceData.builder().setCurrency("usd").setUnitAmount(4673L)
                .setProductData(SessionCreateParams.LineItem.PriceData.ProductData.builder()
                    .setName("H100 SXM × 24 h").build()).build()).build())
        .build());
  }

  @Test
  void declinedCardIsRefusedThenTheTestVisaPaysAndRedirects() throws StripeException {
    Session session = paymentSession();
    WebDriverWait wait = new WebDriverWait(browser.driver(), Duration.ofSeconds(15));
    browser.driver().get(session.getUrl());
    assertTrue(wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("checkout-total"))).getText()
        .contains("93.46 USD"));

    fill("4000 0000 0000 0002");
    WebElement error = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("payment-error")));
    assertEquals("Your card was declined.", error.getText());

    fill("4242 4242 4242 4242");
    wait.until(ExpectedConditions.urlContains("/reservations?session=" + session.getId()));
    Session paid = stripe().checkout().sessions().retrieve(session.getId());
    assertEquals("complete", paid.getStatus());
    assertEquals("paid", paid.getPaymentStatus());
    assertEquals("succeeded", stripe().paymentIntents().retrieve(paid.getPaymentIntent()).getStatus());
    assertTrue(stripe().events().list(EventListParams.builder().setType("checkout.session.completed").build())
        .getData().stream().anyMatch(e -> e.getDataObjectDeserializer().getObject()
            .map(o -> ((Session) o).getId().equals(session.getId())).orElse(false)));
  }

  @Test
  void cardNeedingAuthenticationShowsTheConfirmStep() throws StripeException {
    Session session = paymentSession();
    WebDriverWait wait = new WebDriverWait(browser.driver(), Duration.ofSeconds(15));
    browser.driver().get(session.getUrl());
    fill("4000 0025 0000 3155");
    wait.until(ExpectedConditions.elementToBeClickable(By.id("authorize-payment"))).click();
    wait.until(ExpectedConditions.urlContains("/reservations?session=" + session.getId()));
    assertEquals("complete", stripe().checkout().sessions().retrieve(session.getId()).getStatus());
  }

  @Test
  void invalidCardDetailsAreCaughtLikeStripesForm() throws StripeException {
    Session session = paymentSession();
    WebDriverWait wait = new WebDriverWait(browser.driver(), Duration.ofSeconds(15));
    browser.driver().get(session.getUrl());
    fill("4242 4242 4242 4241");
    // the form re-renders its error: wait for the text itself, not for an element that may be replaced
    wait.until(ExpectedConditions.textToBe(By.id("payment-error"), "Your card number is invalid."));
    fillWithExpiry("4242 4242 4242 4242", "01 / 20");
    wait.until(ExpectedConditions.textToBe(By.id("payment-error"), "Your card's expiration year is in the past."));
    assertEquals("open", stripe().checkout().sessions().retrieve(session.getId()).getStatus());
  }

  @Test
  void setupModeSavesTheCardOnTheCustomer() throws StripeException {
    Customer customer = stripe().customers().create(CustomerCreateParams.builder().setEmail("bob@example.com").build());
    Session session = stripe().checkout().sessions().create(SessionCreateParams.builder()
        .setMode(SessionCreateParams.Mode.SETUP).setCurrency("usd").setCustomer(customer.getId())
        .setSuccessUrl(node.url("/account?setup={CHECKOUT_SESSION_ID}")).build());
    WebDriverWait wait = new WebDriverWait(browser.driver(), Duration.ofSeconds(15));
    browser.driver().get(session.getUrl());
    fill("4000 0000 0000 0341");
    wait.until(ExpectedConditions.urlContains("/account?setup=" + session.getId()));
    var saved = stripe().paymentMethods().list(PaymentMethodListParams.builder().setCustomer(customer.getId())
        .setType(PaymentMethodListParams.Type.CARD).build()).getData();
    assertEquals(1, saved.size());
    assertEquals("0341", saved.get(0).getCard().getLast4());
    assertEquals("succeeded", stripe().setupIntents().retrieve(
        stripe().checkout().sessions().retrieve(session.getId()).getSetupIntent()).getStatus());
  }

  @Test
  void expiredSessionRefusesPayment() throws StripeException {
    Session session = paymentSession();
    stripe().checkout().sessions().expire(session.getId());
    browser.driver().get(session.getUrl());
    assertTrue(browser.driver().findElement(By.id("checkout-message")).getText().contains("expired"));
  }

  private void fill(String number) {
    fillWithExpiry(number, "12 / 34");
  }

  private void fillWithExpiry(String number, String expiry) {
    WebDriverWait wait = new WebDriverWait(browser.driver(), Duration.ofSeconds(15));
    WebElement card = wait.until(ExpectedConditions.elementToBeClickable(By.id("card-number")));
    card.clear();
    card.sendKeys(number);
    WebElement exp = browser.driver().findElement(By.id("card-expiry"));
    exp.clear();
    exp.sendKeys(expiry);
    browser.driver().findElement(By.id("card-cvc")).sendKeys("123");
    WebElement name = browser.driver().findElement(By.id("card-name"));
    name.clear();
    name.sendKeys("Test Payer");
    browser.driver().findElement(By.id("submit-payment")).click();
  }
}
