package io.gpurental.gateway.reservations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.platform.errors.Invalid;
import org.junit.jupiter.api.Test;

/** OpenSSH public keys, checked against keys and fingerprints made by ssh-keygen. */
class SshPublicKeyTest {
  private static final String ED25519 =
      "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGrce7hzXfWyWoky9u8TUrZmcvp3RfrMOUNmPmLNA1Tc test@example";
  private static final String ECDSA = "ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBNWI9"
      + "LRadLGAApEZfjm2b6Duj01QBzpTXJd3xZ+0eDJTVvk17GbTK8kJGllVWMW3mth1rgaP5S8wyig2BU1hjPU= ec";
  private static final String RSA_2048 = "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQDDF37ofx2WF+a0PrcKHXLUq6Blhs4NcF4uKl+bYU8kue3nf7BQ/c/zMXpTUlcqAWVpeAEGePSk7+BrnFIbGfKDC3F6za1dwIQuHQlakUOjmboXM2xjeioQqRg1VdPNU3Iq/tXSjkPX5XgOc8nSTjKxwOxNeI0nNZAIW/EB1S+t0qX4QeXxF7E3RRB/CDG2G14jigTfiUhIl7/jbZ2RuDbPe7fky7ojXsRYhka73/PbQK7JywQLUqHZhZjopBsQxJBrOmKTa6/6J8PindneasI95cPErYHMy9f6YM3nYuCSF64Av3SCIRTX9XzNCKILAUAEojL4lh68pMOx8YIQJ4ez rsa2048";
  private static final String RSA_1024 = "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQD4ISjHyKLyB5jgiEC+Np9iBBYFJIIMnNPXLP2k+r3Cd8yKhC6WmsVYZKo54k/kxXUeFK9MScoLYS0AYCqslqWOzVv7c487CK4Mm0IJQGMQyU1KRrtMjNIyBTNjBeWhb1QxWMdxUFjqUJKabojM+AVhYKn84SxK3j8M6wLFd8Gujw==";

  @Test
  void acceptsEd25519EcdsaAndRsa2048WithSshKeygensFingerprints() {
    assertEquals("SHA256:yGFu6Aow3p5rgSGfgIjkhHf0s7AbaGDmiWAvi7N9iqo", SshPublicKey.parse(ED25519, "#/k").fingerprint());
    assertEquals("SHA256:f/j0BzIeWPEl7hxVNnvP9pd55/D5MufYr2j6CqwwHvE", SshPublicKey.parse(ECDSA, "#/k").fingerprint());
    assertEquals("SHA256:yWtIRv+OiWrGemlgOLrbEa/2KR0tU6PoDYH/2Mm5+6Q", SshPublicKey.parse(RSA_2048, "#/k").fingerprint());
    assertEquals("ssh-ed25519", SshPublicKey.parse("  " + ED25519 + "\n", "#/k").type());
  }

  @Test
  void refusesWeakForeignOrBrokenKeysNamingTheField() {
    Invalid weak = assertThrows(Invalid.class, () -> SshPublicKey.parse(RSA_1024, "#/ssh_public_key"));
    assertTrue(weak.getMessage().contains("2048"), weak.getMessage());
    assertEquals("#/ssh_public_key", weak.extensions().getJsonArray("errors").getJsonObject(0).getString("pointer"));
    assertThrows(Invalid.class, () -> SshPublicKey.parse("ssh-dss AAAAB3NzaC1kc3MAAACBAP", "#/k"));
    assertThrows(Invalid.class, () -> SshPublicKey.parse("ssh-rsa " + ED25519.split(" ")[1], "#/k"), "mislabelled");
    assertThrows(Invalid.class, () -> SshPublicKey.parse("ssh-ed25519 !!!notbase64", "#/k"));
    assertThrows(Invalid.class, () -> SshPublicKey.parse("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGrc", "#/k"), "truncated");
    assertThrows(Invalid.class, () -> SshPublicKey.parse(ED25519 + "\nssh-ed25519 AAAA second", "#/k"), "two lines");
    assertThrows(Invalid.class, () -> SshPublicKey.parse("", "#/k"));
    assertThrows(Invalid.class, () -> SshPublicKey.parse(null, "#/k"));
  }
}
