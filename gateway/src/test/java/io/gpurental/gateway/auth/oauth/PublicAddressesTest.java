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

  @Test
  void publicAddressesAre() throws UnknownHostException {
    for (String address : new String[] {"140.82.112.3", "100.128.0.1", "2606:4700::1111"}) {
      assertTrue(PublicAddresses.isPublic(InetAddress.getByName(address)), address);
    }
  }
}
