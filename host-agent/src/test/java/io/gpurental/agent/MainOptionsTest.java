package io.gpurental.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** What the command line accepts: no credentials in clear over a network, no token in the process list. */
class MainOptionsTest {
  @TempDir
  Path dir;

  private AgentOptions options(String... args) {
    CommandLine commandLine = Main.commandLine();
    commandLine.parseArgs(args);
    return ((Main) commandLine.getCommand()).options();
  }

  @Test
  void plainHttpIsRefusedUnlessTheGatewayIsOnThisMachine() {
    for (String url : new String[] {"http://10.0.0.5:8080", "http://gpus.example.com", "http://127.evil.example"}) {
      CommandLine.ParameterException refused = assertThrows(CommandLine.ParameterException.class,
          () -> options("--gateway", url, "--state-dir", dir.toString()), url);
      assertTrue(refused.getMessage().contains("https://"), refused.getMessage());
    }
    for (String url : new String[] {"https://gpus.example.com", "http://127.0.0.1:8080", "http://localhost:8080",
        "http://[::1]:8080"}) {
      assertEquals(url, options("--gateway", url, "--state-dir", dir.toString()).gateway(), url);
    }
  }

  @Test
  void theEnrolmentTokenComesFromAFileAndTheFlagIsGone() throws IOException {
    Path file = dir.resolve("token");
    Files.writeString(file, "gpr_enr_fromafile\n");
    assertEquals("gpr_enr_fromafile", options("--gateway", "https://g.example", "--state-dir", dir.toString(),
        "--enrollment-token-file", file.toString()).enrollmentToken());
    assertThrows(CommandLine.UnmatchedArgumentException.class, () -> options("--gateway", "https://g.example",
        "--state-dir", dir.toString(), "--enrollment-token", "gpr_enr_inps"));
  }

  @Test
  void theRentersPullLimitAndDockerWithoutUserNamespacesAreTheOperatorsChoice() {
    AgentOptions defaults = options("--gateway", "https://g.example", "--state-dir", dir.toString());
    assertEquals(50_000_000_000L, defaults.maxPullBytes());
    assertEquals(false, defaults.allowDockerWithoutUserns(), "refused unless asked for");
    AgentOptions chosen = options("--gateway", "https://g.example", "--state-dir", dir.toString(),
        "--max-pull-gb", "8", "--allow-docker-without-userns");
    assertEquals(8_000_000_000L, chosen.maxPullBytes());
    assertEquals(true, chosen.allowDockerWithoutUserns());
    CommandLine.ParameterException zero = assertThrows(CommandLine.ParameterException.class, () -> options(
        "--gateway", "https://g.example", "--state-dir", dir.toString(), "--max-pull-gb", "0"));
    assertTrue(zero.getMessage().contains("--max-pull-gb"), zero.getMessage());
  }
}
