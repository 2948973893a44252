package io.gpurental.agent.runtime.container;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.agent.runtime.Commands;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Parts of the rules that need no engine: chain names, the NAT ports read back, and (with the real
 * iptables, as root) whether the installed rules still apply.
 */
class EgressRulesTest {

  @Test
  void rulesHoldOnlyWithTheirRefusalsAndTheJumpsAboveEveryOtherRule() throws Exception {
    String id = "rsv_egress" + Long.toHexString(System.nanoTime());
    String subnet = "10.250." + (int) (Math.random() * 250) + ".0/24";
    EgressRules rules = new EgressRules(Commands.system());
    try {
      rules.install(id, subnet, null);
      assertTrue(rules.installed(id), "just installed");
      run("iptables", "-w", "5", "-I", "FORWARD", "1", "-s", subnet, "-j", "ACCEPT");
      assertFalse(rules.installed(id), "an accept rule above the jump lets everything through");
      rules.install(id, subnet, null);
      assertTrue(rules.installed(id), "installed again: the jump is first");
      run("iptables", "-w", "5", "-F", EgressRules.chain("F", id));
      assertFalse(rules.installed(id), "a flushed chain is there but refuses nothing");
    } finally {
      run("iptables", "-w", "5", "-D", "FORWARD", "-s", subnet, "-j", "ACCEPT");
      rules.remove(id);
    }
  }

  private static void run(String... argv) throws java.io.IOException {
    Commands.system().run(List.of(argv), java.time.Duration.ofSeconds(20));
  }

  @Test
  void chainsAreShortAndStablePerInstance() {
    String chain = EgressRules.chain("F", "rsv_" + "x".repeat(60));
    assertTrue(chain.length() <= 28, chain);
    assertEquals(chain, EgressRules.chain("F", "rsv_" + "x".repeat(60)));
    assertTrue(!chain.equals(EgressRules.chain("F", "rsv_y")));
  }

  @Test
  void portsWithALeftoverDnatRuleAreNotHandedOut() {
    String nat = String.join("\n",
        "-A NETAVARK-DN-65AD58F41EF8E -s 10.89.10.0/24 -p tcp -m tcp --dport 43000 -j NETAVARK-HOSTPORT-SETMARK",
        "-A NETAVARK-DN-65AD58F41EF8E -p tcp -m tcp --dport 43000 -j DNAT --to-destination 10.89.8.2:22",
        "-A NETAVARK-DN-DA4EBCD13E318 -p tcp -m tcp --dport 43001 -j DNAT --to-destination 10.89.10.3:8888",
        "-A NETAVARK-HOSTPORT-SETMARK -j MARK --set-xmark 0x2000/0x2000");
    Commands iptables = (argv, timeout) -> {
      assertEquals(List.of("iptables", "-w", "5", "-t", "nat", "-S"), argv);
      return new Commands.Result(0, nat, "");
    };
    assertEquals(Set.of(43000, 43001), new EgressRules(iptables).forwardedPorts());
  }
}
