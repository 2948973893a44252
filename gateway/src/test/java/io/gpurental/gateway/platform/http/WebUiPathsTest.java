package io.gpurental.gateway.platform.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestGateway;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** What a newcomer's browser asks for besides the app: the classic icon, and an offer by its API path. */
@GatewayTest
class WebUiPathsTest {
  @Test
  void theClassicIconLeadsToTheSvgIcon(TestGateway node) {
    HttpResponse<String> icon = node.get("/favicon.ico");
    assertEquals(301, icon.statusCode());
    assertEquals("/favicon.svg", icon.headers().firstValue("Location").orElse(""));
    HttpResponse<String> svg = node.get("/favicon.svg");
    assertEquals(200, svg.statusCode());
    assertTrue(svg.body().contains("<svg"), svg.body());
  }

  @Test
  void anOfferByItsApiPathOpensItsCatalogPage(TestGateway node) {
    HttpResponse<String> offer = node.send(HttpRequest.newBuilder(URI.create(node.url("/offers/off_nyc_h100_01"))));
    assertEquals(301, offer.statusCode());
    assertEquals("/catalog/off_nyc_h100_01", offer.headers().firstValue("Location").orElse(""));
    assertEquals(200, node.get("/catalog/off_nyc_h100_01").statusCode());
  }
}
