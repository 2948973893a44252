package io.gpurental.gateway.auth.oauth;

import io.gpurental.gateway.platform.Ids;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.SocketAddress;
import java.net.InetAddress;
import java.net.URI;

/**
 * Who a {@code client_id} is: a client registered here (RFC 7591), or the URL of a Client ID
 * Metadata Document, fetched (asynchronously, never on a blocked thread) with a strict timeout
 * and size cap and no redirects, over HTTPS only; plain HTTP only to loopback addresses and only
 * when the server was told so (sandbox mode, where tests serve documents locally); never from a
 * host that resolves to a private, loopback or link-local address otherwise.
 */
final class OAuthClients {
  static final int MAX_DOCUMENT_BYTES = 16 * 1024;
  static final long FETCH_TIMEOUT_MS = 5_000;
  private static final int MAX_REDIRECT_URIS = 10;
  private final OAuthRepository repository;
  private final HttpClient http;
  private final boolean loopbackDocuments;
  private final Vertx vertx;

  OAuthClients(Vertx vertx, OAuthRepository repository, boolean loopbackDocuments) {
    this.vertx = vertx;
    this.repository = repository;
    this.loopbackDocuments = loopbackDocuments;
    this.http = vertx.createHttpClient(new HttpClientOptions().setConnectTimeout((int) FETCH_TIMEOUT_MS)
        .setIdleTimeout(10));
  }

  /** Whether the id is a metadata document URL this server would fetch. */
  boolean isDocumentUrl(String clientId) {
    try {
      URI uri = new URI(clientId);
      if (uri.getHost() == null || uri.getRawFragment() != null || uri.getRawUserInfo() != null) {
        return false;
      }
      return "https".equals(uri.getScheme())
          || (loopbackDocuments && "http".equals(uri.getScheme()) && OAuthClient.isLoopback(uri.getHost()));
    } catch (java.net.URISyntaxException e) {
      return false;
    }
  }

  /** The client, or empty when unknown (or its document unusable: the message says why). */
  Future<OAuthClient> resolve(String clientId) {
    if (clientId == null || clientId.isBlank()) {
      return Future.failedFuture(new IllegalArgumentException("client_id is missing"));
    }
    if (clientId.contains("://")) {
      return isDocumentUrl(clientId) ? fetch(clientId) : Future.failedFuture(new IllegalArgumentException(
          "a client_id URL must be an https URL of a client metadata document"));
    }
    return repository.client(clientId).map(found -> found.orElseThrow(
        () -> new IllegalArgumentException("no client " + clientId + " is registered here")));
  }

  /** Registers a client from an RFC 7591 request; fails with {@link OAuthError} on bad metadata. */
  Future<OAuthClient> register(JsonObject request) {
    OAuthClient client = fromMetadata(Ids.newId("mcpc"), request, OAuthError::invalidClientMetadata);
    return repository.register(client).map(client);
  }

  private Future<OAuthClient> fetch(String url) {
    URI uri = URI.create(url);
    return addressOf(uri).compose(address -> fetch(url, uri, address));
  }

  /**
   * The address to fetch the document from, resolved once (off the event loop) and then connected
   * to, so a name that resolves to the gateway's own network, now or on a second lookup, is refused.
   */
  private Future<InetAddress> addressOf(URI uri) {
    boolean loopbackAllowed = loopbackDocuments && OAuthClient.isLoopback(uri.getHost());
    return vertx.executeBlocking(() -> InetAddress.getAllByName(uri.getHost()))
        .recover(failure -> Future.failedFuture(new IllegalArgumentException(
            "the client metadata document's host " + uri.getHost() + " does not resolve")))
        .map(addresses -> {
          for (InetAddress address : addresses) {
            if (!PublicAddresses.isPublic(address) && !(loopbackAllowed && address.isLoopbackAddress())) {
              throw new IllegalArgumentException("the client metadata document's host " + uri.getHost()
                  + " resolves to a private address; it must be reachable on the public internet");
            }
          }
          return addresses[0];
        });
  }

  private Future<OAuthClient> fetch(String url, URI uri, InetAddress address) {
    int port = uri.getPort() != -1 ? uri.getPort() : "https".equals(uri.getScheme()) ? 443 : 80;
    RequestOptions options = new RequestOptions().setMethod(HttpMethod.GET).setAbsoluteURI(url)
        .setServer(SocketAddress.inetSocketAddress(port, address.getHostAddress()))
        .setFollowRedirects(false).setIdleTimeout(FETCH_TIMEOUT_MS).putHeader("Accept", "application/json");
    Future<Buffer> body = http.request(options).compose(request -> request.send()).compose(response -> {
      if (response.statusCode() != 200) {
        return Future.failedFuture(new IllegalArgumentException(
            "the client metadata document at " + url + " answered " + response.statusCode()));
      }
      Promise<Buffer> collected = Promise.promise();
      Buffer buffer = Buffer.buffer();
      response.handler(chunk -> {
        if (buffer.length() + chunk.length() > MAX_DOCUMENT_BYTES) {
          collected.tryFail(new IllegalArgumentException("the client metadata document is over "
              + MAX_DOCUMENT_BYTES + " bytes"));
          response.request().reset();
        } else {
          buffer.appendBuffer(chunk);
        }
      });
      response.exceptionHandler(collected::tryFail);
      response.endHandler(v -> collected.tryComplete(buffer));
      return collected.future();
    }).timeout(FETCH_TIMEOUT_MS, java.util.concurrent.TimeUnit.MILLISECONDS);
    return body.recover(failure -> Future.failedFuture(failure instanceof IllegalArgumentException ? failure
            : new IllegalArgumentException("the client metadata document at " + url + " could not be fetched ("
                + failure.getMessage() + ")")))
        .map(bytes -> {
          JsonObject document;
          try {
            document = bytes.toJsonObject();
          } catch (RuntimeException e) {
            throw new IllegalArgumentException("the client metadata document at " + url + " is not a JSON object");
          }
          if (!url.equals(document.getValue("client_id"))) {
            throw new IllegalArgumentException("the client metadata document's client_id must be its own URL");
          }
          return fromMetadata(url, document.copy().put("client_name",
              document.getValue("client_name") instanceof String name ? name : uri.getHost()),
              IllegalArgumentException::new);
        });
  }

  private static OAuthClient fromMetadata(String id, JsonObject metadata,
      java.util.function.Function<String, RuntimeException> refusal) {
    Object method = metadata.getValue("token_endpoint_auth_method");
    if (method != null && !"none".equals(method)) {
      throw refusal.apply("only public clients are supported: token_endpoint_auth_method must be none");
    }
    if (!(metadata.getValue("redirect_uris") instanceof JsonArray uris) || uris.isEmpty()
        || uris.size() > MAX_REDIRECT_URIS) {
      throw refusal.apply("redirect_uris must list 1 to " + MAX_REDIRECT_URIS + " URIs");
    }
    for (Object uri : uris) {
      if (!(uri instanceof String text) || !OAuthClient.acceptableRedirect(text)) {
        throw refusal.apply("redirect URI " + uri + " is neither https nor http to a loopback address");
      }
    }
    Object grants = metadata.getValue("grant_types");
    if (grants instanceof JsonArray list && list.stream().anyMatch(
        grant -> !"authorization_code".equals(grant) && !"refresh_token".equals(grant))) {
      throw refusal.apply("grant_types may only be authorization_code and refresh_token");
    }
    String name = metadata.getValue("client_name") instanceof String text && !text.isBlank()
        ? text.strip() : "Unnamed MCP client";
    if (name.length() > 100) {
      throw refusal.apply("client_name is longer than 100 characters");
    }
    return new OAuthClient(id, name, uris.stream().map(Object::toString).toList());
  }

  Future<Void> close() {
    return http.close();
  }
}
