package io.gpurental.gateway.auth.oauth;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.UnknownHostException;
import org.junit.jupiter.api.Test;

class PublicAddressesTest {

  @Test
  void privateLoopbackLinkLocalAndCgnatAddressesAreNotFetchedFrom() throws UnknownHostException {
    for (String address : new String[] {"127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "100.64.0.1",
        "169.254.169.254", "0.0.0.0", "::1", "fd00::1", "fe80::1", "224.0.0.1"}) {
      assertFalse(PublicAddresses.isPublic(InetAddress.getByName(address)), address);
    }
  }

  /** Issue 33: each of these counted as public before. */
  @Test
  void translatedTunnelledAndEmbeddedIpv4AddressesAreJudgedByWhereTheyLead() throws UnknownHostException {
    for (String address : new String[] {"64:ff9b::7f00:1", "64:ff9b::8c52:7003", "64:ff9b:1::a00:1",
        "2002:7f00:1::1", "2002:8c52:7003::1", "2001:0:4136:e378:8000:63bf:3fff:fdd2", "::127.0.0.1",
        "::10.0.0.1", "::169.254.169.254", "192.0.0.170", "192.0.0.8", "192.88.99.1"}) {
      assertFalse(PublicAddresses.isPublic(InetAddress.getByName(address)), address);
    }
    // Java turns ::ffff:a.b.c.d into the IPv4 address itself; the raw 16 bytes are judged the same
    byte[] mapped = new byte[16];
    mapped[10] = (byte) 0xff;
    mapped[11] = (byte) 0xff;
    mapped[12] = 10;
    mapped[15] = 1;
    assertFalse(PublicAddresses.isPublic(java.net.Inet6Address.getByAddress(null, mapped, null)), "::ffff:10.0.0.1");
    assertTrue(PublicAddresses.isPublic(InetAddress.getByName("::140.82.112.3")), "IPv4-compatible, public inside");
  }

  @Test
  void publicAddressesAre() throws UnknownHostException {
    for (String address : new String[] {"140.82.112.3", "100.128.0.1", "2606:4700::1111"}) {
      assertTrue(PublicAddresses.isPublic(InetAddress.getByName(address)), address);
    }
  }
}
