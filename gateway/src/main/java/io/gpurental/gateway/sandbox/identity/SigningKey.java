package io.gpurental.gateway.sandbox.identity;

import io.gpurental.gateway.platform.Futures;
import io.gpurental.gateway.platform.Ids;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.JWTOptions;
import io.vertx.ext.auth.PubSecKeyOptions;
import io.vertx.ext.auth.jwt.JWTAuth;
import io.vertx.ext.auth.jwt.JWTAuthOptions;
import java.math.BigInteger;
import java.security.KeyFactory;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.RSAPublicKeySpec;
import java.security.interfaces.RSAPrivateCrtKey;
import java.util.Base64;

/**
 * The sandbox Google's RS256 signing key: made once per cluster (the first node to need it puts
 * it in a cluster-wide map), so every node signs and publishes the same key.
 */
final class SigningKey {
  private final Vertx vertx;
  private Future<Loaded> loaded;

  /** The key id, its private key in PEM, the JWKS to publish, and a signer. */
  record Loaded(String kid, JsonObject jwks, JWTAuth signer) {}

  SigningKey(Vertx vertx) {
    this.vertx = vertx;
  }

  Future<Loaded> get() {
    return Futures.onCallerContext(vertx, shared());
  }

  private synchronized Future<Loaded> shared() {
    if (loaded == null || loaded.failed()) {
      loaded = vertx.sharedData().<String, JsonObject>getAsyncMap("sandbox.identity.keys")
          .compose(map -> vertx.executeBlocking(SigningKey::generate)
              .compose(fresh -> map.putIfAbsent("signing", fresh))
              .compose(existing -> existing != null ? Future.succeededFuture(existing) : map.get("signing")))
          .compose(stored -> vertx.executeBlocking(() -> load(vertx, stored)));
    }
    return loaded;
  }

  /** Signs claims as an id_token (RS256, with this key's kid). */
  Future<String> sign(JsonObject claims) {
    return get().map(key -> key.signer().generateToken(claims, new JWTOptions().setAlgorithm("RS256").setNoTimestamp(true)));
  }

  private static JsonObject generate() throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(2048);
    byte[] pkcs8 = generator.generateKeyPair().getPrivate().getEncoded();
    return new JsonObject().put("kid", Ids.randomBase62(12)).put("pkcs8", Base64.getEncoder().encodeToString(pkcs8));
  }

  private static Loaded load(Vertx vertx, JsonObject stored) throws Exception {
    String kid = stored.getString("kid");
    byte[] pkcs8 = Base64.getDecoder().decode(stored.getString("pkcs8"));
    RSAPrivateCrtKey privateKey = (RSAPrivateCrtKey) KeyFactory.getInstance("RSA")
        .generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
    RSAPublicKey publicKey = (RSAPublicKey) KeyFactory.getInstance("RSA")
        .generatePublic(new RSAPublicKeySpec(privateKey.getModulus(), privateKey.getPublicExponent()));
    String pem = "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder().encodeToString(pkcs8)
        + "\n-----END PRIVATE KEY-----\n";
    JWTAuth signer = JWTAuth.create(vertx, new JWTAuthOptions()
        .addPubSecKey(new PubSecKeyOptions().setAlgorithm("RS256").setBuffer(pem).setId(kid)));
    JsonObject jwk = new JsonObject()
        .put("kty", "RSA").put("use", "sig").put("alg", "RS256").put("kid", kid)
        .put("n", base64Url(publicKey.getModulus()))
        .put("e", base64Url(publicKey.getPublicExponent()));
    return new Loaded(kid, new JsonObject().put("keys", new JsonArray().add(jwk)), signer);
  }

  private static String base64Url(BigInteger value) {
    byte[] bytes = value.toByteArray();
    if (bytes.length > 1 && bytes[0] == 0) {
      bytes = java.util.Arrays.copyOfRange(bytes, 1, bytes.length);
    }
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }
}
