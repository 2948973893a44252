package io.gpurental.gateway.sandbox.stripe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.stripe.StripeClient;
import com.stripe.exception.AuthenticationException;
import com.stripe.exception.CardException;
import com.stripe.exception.IdempotencyException;
import com.stripe.exception.InvalidRequestException;
import com.stripe.exception.StripeException;
import com.stripe.model.Customer;
import com.stripe.model.Event;
import com.stripe.model.PaymentIntent;
import com.stripe.model.PaymentMethod;
import com.stripe.model.Refund;
import com.stripe.model.StripeCollection;
import com.stripe.model.checkout.Session;
import com.stripe.net.RequestOptions;
import com.stripe.param.CustomerCreateParams;
import com.stripe.param.CustomerUpdateParams;
import com.stripe.param.EventListParams;
import com.stripe.param.PaymentIntentCaptureParams;
import com.stripe.param.PaymentIntentCreateParams;
import com.stripe.param.RefundCreateParams;
import com.stripe.param.checkout.SessionCreateParams;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestDatabase;
import io.gpurental.gateway.testing.TestGateway;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Every call the gateway makes round-trips through stripe-java 33.3.0 into typed objects. */
@GatewayTest
class StripeSandboxContractTest {
  private static TestGateway node;
  private static StripeClient stripe;

  @BeforeAll
  static void start(TestGateway gateway) {
    node = gateway;
    stripe = client(node.gateway().config().stripe().secretKey());
  }

  static StripeClient client(String key) {
    return StripeClient.builder().setApiKey(key).setApiBase(node.url("/sandbox/stripe")).setMaxNetworkRetries(0).build();
  }

  @Test
  void wrongApiKeyIsRefusedLikeStripe() {
    assertThrows(AuthenticationException.class,
        () -> client("sk_test_wrong").customers().create(CustomerCreateParams.builder().build()));
  }

  @Test
  void secretKeyAsBasicUserNameIsAcceptedLikeStripe() {
    String key = node.gateway().config().stripe().secretKey();
    java.net.http.HttpResponse<String> basic = createCustomer(key + ":");
    assertEquals(200, basic.statusCode(), basic.body());
    assertEquals("customer", new io.vertx.core.json.JsonObject(basic.body()).getString("object"));
    assertEquals(401, createCustomer("sk_test_wrong:").statusCode());
  }

  /** As {@code curl -u <credentials> -d email=… <base>/v1/customers}. */
  private static java.net.http.HttpResponse<String> createCustomer(String credentials) {
    String basic = java.util.Base64.getEncoder().encodeToString(credentials.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    return node.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(node.url("/sandbox/stripe/v1/customers")))
        .header("Authorization", "Basic " + basic)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(java.net.http.HttpRequest.BodyPublishers.ofString("email=basic%40example.com")));
  }

  @Test
  void customerRoundTripsWithADefaultPaymentMethod() throws StripeException {
    Customer customer = stripe.customers().create(CustomerCreateParams.builder().setEmail("alice@example.com")
        .setName("Alice").putMetadata("account_id", "acc_1").build());
    assertTrue(customer.getId().startsWith("cus_"));
    assertEquals("acc_1", customer.getMetadata().get("account_id"));
    PaymentIntent paid = stripe.paymentIntents().create(PaymentIntentCreateParams.builder().setAmount(2100L)
        .setCurrency("usd").setCustomer(customer.getId()).setPaymentMethod("pm_card_visa").setConfirm(true).build());
    Customer updated = stripe.customers().update(customer.getId(), CustomerUpdateParams.builder()
        .setInvoiceSettings(CustomerUpdateParams.InvoiceSettings.builder()
            .setDefaultPaymentMethod(paid.getPaymentMethod()).build()).build());
    assertEquals(paid.getPaymentMethod(), updated.getInvoiceSettings().getDefaultPaymentMethod());
    assertEquals("alice@example.com", stripe.customers().retrieve(customer.getId()).getEmail());
    PaymentMethod method = stripe.paymentMethods().retrieve(paid.getPaymentMethod());
    assertEquals("4242", method.getCard().getLast4());
    assertEquals("visa", method.getCard().getBrand());
  }

  @Test
  void confirmedIntentWithTheVisaTestCardSucceeds() throws StripeException {
    PaymentIntent intent = stripe.paymentIntents().create(PaymentIntentCreateParams.builder().setAmount(4673L)
        .setCurrency("usd").setPaymentMethod("pm_card_visa").setConfirm(true).setOffSession(true)
        .putMetadata("reservation_id", "rsv_1").build());
    assertEquals("succeeded", intent.getStatus());
    assertEquals(4673L, intent.getAmountReceived());
    assertTrue(intent.getLatestCharge().startsWith("ch_"));
    assertEquals("rsv_1", stripe.paymentIntents().retrieve(intent.getId()).getMetadata().get("reservation_id"));
  }

  @Test
  void declinesSurfaceAsCardExceptionsWithStripesCodes() {
    CardException declined = assertThrows(CardException.class, () -> charge("pm_card_chargeDeclined", true));
    assertEquals("card_declined", declined.getCode());
    assertEquals("generic_decline", declined.getDeclineCode());
    assertEquals(402, declined.getStatusCode());
    CardException funds = assertThrows(CardException.class, () -> charge("pm_card_chargeDeclinedInsufficientFunds", true));
    assertEquals("insufficient_funds", funds.getDeclineCode());
    CardException authentication = assertThrows(CardException.class, () -> charge("pm_card_authenticationRequired", true));
    assertEquals("authentication_required", authentication.getCode());
    assertNotNull(authentication.getStripeError().getPaymentIntent(), "the failed intent comes with the error");
  }

  @Test
  void onSessionAuthenticationLeavesTheIntentWaitingForAction() throws StripeException {
    PaymentIntent intent = charge("pm_card_authenticationRequired", false);
    assertEquals("requires_action", intent.getStatus());
    assertTrue(intent.getNextAction().getRedirectToUrl().getUrl().contains("/sandbox/stripe/authenticate/" + intent.getId()));
  }

  @Test
  void manualCaptureAndCancel() throws StripeException {
    PaymentIntent held = stripe.paymentIntents().create(PaymentIntentCreateParams.builder().setAmount(1000L)
        .setCurrency("usd").setPaymentMethod("pm_card_visa").setConfirm(true)
        .setCaptureMethod(PaymentIntentCreateParams.CaptureMethod.MANUAL).build());
    assertEquals("requires_capture", held.getStatus());
    PaymentIntent captured = stripe.paymentIntents().capture(held.getId(),
        PaymentIntentCaptureParams.builder().setAmountToCapture(800L).build());
    assertEquals("succeeded", captured.getStatus());
    assertEquals(800L, captured.getAmountReceived());
    PaymentIntent open = stripe.paymentIntents().create(PaymentIntentCreateParams.builder().setAmount(1000L)
        .setCurrency("usd").build());
    assertEquals("canceled", stripe.paymentIntents().cancel(open.getId()).getStatus());
    assertThrows(InvalidRequestException.class, () -> stripe.paymentIntents().cancel(captured.getId()));
  }

  @Test
  void partialAndFullRefundsNeverExceedTheCharge() throws StripeException {
    PaymentIntent intent = charge("pm_card_visa", true);
    Refund first = stripe.refunds().create(RefundCreateParams.builder().setPaymentIntent(intent.getId())
        .setAmount(1000L).build());
    assertEquals(1000L, first.getAmount());
    assertEquals("succeeded", first.getStatus());
    Refund rest = stripe.refunds().create(RefundCreateParams.builder().setPaymentIntent(intent.getId()).build());
    assertEquals(2100L - 1000L, rest.getAmount());
    InvalidRequestException over = assertThrows(InvalidRequestException.class, () -> stripe.refunds().create(
        RefundCreateParams.builder().setPaymentIntent(intent.getId()).setAmount(1L).build()));
    assertEquals("amount", over.getParam());
    assertEquals(rest.getId(), stripe.refunds().retrieve(rest.getId()).getId());
  }

  @Test
  void checkoutSessionsAreCreatedRetrievedAndExpired() throws StripeException {
    Session session = stripe.checkout().sessions().create(SessionCreateParams.builder()
        .setMode(SessionCreateParams.Mode.PAYMENT)
        .setSuccessUrl(node.url("/reservations?session={CHECKOUT_SESSION_ID}"))
        .setCancelUrl(node.url("/catalog"))
        .setClientReferenceId("rsv_42")
        .addLineItem(SessionCreateParams.LineItem.builder().setQuantity(1L)
            .setPriceData(SessionCreateParams.LineItem.PriceData.builder().setCurrency("usd").setUnitAmount(9552L)
                .setProductData(SessionCreateParams.LineItem.PriceData.ProductData.builder()
                    .setName("2 × H100 SXM × 24 h").build()).build()).build())
        .build());
    assertTrue(session.getId().startsWith("cs_test_"));
    assertEquals("open", session.getStatus());
    assertEquals(9552L, session.getAmountTotal());
    assertTrue(session.getUrl().endsWith("/sandbox/stripe/checkout/" + session.getId()));
    assertEquals("rsv_42", stripe.checkout().sessions().retrieve(session.getId()).getClientReferenceId());
    assertEquals("expired", stripe.checkout().sessions().expire(session.getId()).getStatus());
  }

  @Test
  void eventsCarryTheLibrarysApiVersionSoTheyDeserialize() throws StripeException {
    PaymentIntent intent = charge("pm_card_visa", true);
    StripeCollection<Event> events = stripe.events().list(EventListParams.builder()
        .setType("payment_intent.succeeded").setLimit(100L).build());
    Event event = events.getData().stream()
        .filter(e -> ((PaymentIntent) e.getDataObjectDeserializer().getObject().orElseThrow()).getId().equals(intent.getId()))
        .findFirst().orElseThrow();
    assertEquals(com.stripe.Stripe.API_VERSION, event.getApiVersion());
    assertEquals(event.getId(), stripe.events().retrieve(event.getId()).getId());
  }

  @Test
  void idempotencyKeyReplaysTheSameRequestAndRefusesADifferentOne() throws StripeException {
    String key = "rsv_" + UUID.randomUUID();
    RequestOptions options = RequestOptions.builder().setIdempotencyKey(key).build();
    PaymentIntentCreateParams params = PaymentIntentCreateParams.builder().setAmount(5000L).setCurrency("usd").build();
    PaymentIntent first = stripe.paymentIntents().create(params, options);
    PaymentIntent again = stripe.paymentIntents().create(params, options);
    assertEquals(first.getId(), again.getId(), "replayed, not created twice");
    assertThrows(IdempotencyException.class, () -> stripe.paymentIntents().create(
        PaymentIntentCreateParams.builder().setAmount(6000L).setCurrency("usd").build(), options));
  }

  @Test
  void paymentMethodsAreListedForTheirCustomerAndDetached() throws StripeException {
    Customer customer = stripe.customers().create(CustomerCreateParams.builder().build());
    PaymentIntent paid = stripe.paymentIntents().create(PaymentIntentCreateParams.builder().setAmount(700L)
        .setCurrency("usd").setCustomer(customer.getId()).setPaymentMethod("pm_card_visa").setConfirm(true).build());
    var listed = stripe.paymentMethods().list(com.stripe.param.PaymentMethodListParams.builder()
        .setCustomer(customer.getId()).setType(com.stripe.param.PaymentMethodListParams.Type.CARD).build()).getData();
    assertEquals(java.util.List.of(paid.getPaymentMethod()), listed.stream().map(PaymentMethod::getId).toList());
    PaymentMethod detached = stripe.paymentMethods().detach(paid.getPaymentMethod());
    assertEquals(null, detached.getCustomer());
    assertTrue(stripe.paymentMethods().list(com.stripe.param.PaymentMethodListParams.builder()
        .setCustomer(customer.getId()).build()).getData().isEmpty());
  }

  @Test
  void stateSurvivesARestart() throws StripeException {
    String database = TestDatabase.newDatabaseUrl();
    java.util.Map<String, String> settings = TestGateway.settings();
    settings.put("GATEWAY_DB_URL", database);
    String customerId;
    try (TestGateway first = TestGateway.start(settings)) {
      customerId = StripeClient.builder().setApiKey(first.gateway().config().stripe().secretKey())
          .setApiBase(first.url("/sandbox/stripe")).build()
          .customers().create(CustomerCreateParams.builder().setEmail("kept@example.com").build()).getId();
    }
    java.util.Map<String, String> again = TestGateway.settings();
    again.put("GATEWAY_DB_URL", database);
    try (TestGateway second = TestGateway.start(again)) {
      Customer kept = StripeClient.builder().setApiKey(second.gateway().config().stripe().secretKey())
          .setApiBase(second.url("/sandbox/stripe")).build().customers().retrieve(customerId);
      assertEquals("kept@example.com", kept.getEmail());
    }
  }

  @Test
  void aSavedCardThatFailsChargesAttachesButIsDeclinedOffSession() {
    CardException e = assertThrows(CardException.class, () -> charge("pm_card_chargeCustomerFail", true));
    assertEquals("card_declined", e.getCode());
  }

  @Test
  void testControlCompletesACheckoutSessionAsThePageWould() throws StripeException {
    Session session = stripe.checkout().sessions().create(SessionCreateParams.builder()
        .setMode(SessionCreateParams.Mode.PAYMENT).setSuccessUrl(node.url("/"))
        .addLineItem(SessionCreateParams.LineItem.builder().setQuantity(1L)
            .setPriceData(SessionCreateParams.LineItem.PriceData.builder().setCurrency("usd").setUnitAmount(2500L)
                .setProductData(SessionCreateParams.LineItem.PriceData.ProductData.builder().setName("GPU").build())
                .build()).build()).build());
    java.net.http.HttpResponse<String> declined = complete(session.getId(), "card=4000000000000002");
    assertEquals(402, declined.statusCode(), declined.body());
    assertTrue(declined.body().contains("card_declined"));
    assertEquals("open", stripe.checkout().sessions().retrieve(session.getId()).getStatus());

    java.net.http.HttpResponse<String> paid = complete(session.getId(), "card=4242424242424242");
    assertEquals(200, paid.statusCode(), paid.body());
    Session completed = stripe.checkout().sessions().retrieve(session.getId());
    assertEquals("complete", completed.getStatus());
    assertEquals("succeeded", stripe.paymentIntents().retrieve(completed.getPaymentIntent()).getStatus());
    assertEquals(400, complete(session.getId(), "card=4242424242424242").statusCode(), "a complete session is closed");
  }

  private static java.net.http.HttpResponse<String> complete(String sessionId, String form) {
    return node.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(
            node.url("/sandbox/stripe/_test/checkout/sessions/" + sessionId + "/complete")))
        .header("Authorization", "Bearer " + node.gateway().sandboxFaultControlKey())
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(java.net.http.HttpRequest.BodyPublishers.ofString(form)));
  }

  @Test
  void missingRequiredParamIsAnInvalidRequest() {
    InvalidRequestException e = assertThrows(InvalidRequestException.class, () -> stripe.paymentIntents().create(
        PaymentIntentCreateParams.builder().setCurrency("usd").build()));
    assertEquals("amount", e.getParam());
    InvalidRequestException missing = assertThrows(InvalidRequestException.class,
        () -> stripe.paymentIntents().retrieve("pi_nope"));
    assertEquals("resource_missing", missing.getCode());
  }

  private static PaymentIntent charge(String paymentMethod, boolean offSession) throws StripeException {
    return stripe.paymentIntents().create(PaymentIntentCreateParams.builder().setAmount(2100L).setCurrency("usd")
        .setPaymentMethod(paymentMethod).setConfirm(true).setOffSession(offSession ? true : null).build());
  }
}
