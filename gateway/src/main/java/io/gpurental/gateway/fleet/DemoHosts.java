package io.gpurental.gateway.fleet;

import io.gpurental.gateway.auth.tokens.TokenSecrets;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import java.util.List;

/**
 * The sandbox's demo fleet, fleet side: three sites and six hosts with 34 GPUs, stored as if
 * their agents had enrolled (facts, GPUs with stable made-up UUIDs and nvidia-smi names), so
 * their instances go through the agent protocol to the sandbox's simulated agents. Their offers
 * and prices are the catalog's ({@code catalog.DemoFleet}). Seeding is idempotent: safe when
 * several nodes start at once and on every restart.
 */
public final class DemoHosts {
  /** A site of the demo fleet. */
  public record Site(String id, String name, String region, String country) {}

  /** A demo host; its renters' SSH endpoints are under the reserved {@code .invalid} domain. */
  public record Host(String id, String siteId, String name, String cpuModel, int cpuCores, int ramGb, int nvmeGb,
      int netGbps, String interconnect, String gpuModel, String nvidiaSmiName, int gpuCount) {
    public String publicAddress() {
      return id.replace('_', '-') + ".sandbox-hosts.invalid";
    }
  }

  public static final List<Site> SITES = List.of(
      new Site("site_nyc1", "New York 1", "us-east", "US"),
      new Site("site_fra1", "Frankfurt 1", "eu-central", "DE"),
      new Site("site_osl1", "Oslo 1", "eu-north", "NO"));

  public static final List<Host> HOSTS = List.of(
      new Host("host_nyc_h200_01", "site_nyc1", "nyc-h200-01", "AMD EPYC 9654", 192, 2048, 30720, 400, "NVLink",
          "H200", "NVIDIA H200", 8),
      new Host("host_nyc_h100_01", "site_nyc1", "nyc-h100-01", "Intel Xeon Platinum 8480+", 112, 2048, 30720, 400,
          "NVLink", "H100 SXM", "NVIDIA H100 80GB HBM3", 8),
      new Host("host_fra_a100_01", "site_fra1", "fra-a100-01", "AMD EPYC 7763", 128, 1024, 15360, 200, "NVLink",
          "A100 80GB", "NVIDIA A100-SXM4-80GB", 4),
      new Host("host_fra_l40s_01", "site_fra1", "fra-l40s-01", "AMD EPYC 9454", 96, 1024, 15360, 100, "PCIe",
          "L40S", "NVIDIA L40S", 8),
      new Host("host_osl_4090_01", "site_osl1", "osl-4090-01", "AMD Threadripper PRO 7975WX", 32, 256, 4096, 25,
          "PCIe", "RTX 4090", "NVIDIA GeForce RTX 4090", 4),
      new Host("host_osl_5090_01", "site_osl1", "osl-5090-01", "AMD Ryzen 9 9950X", 16, 128, 4096, 25, "PCIe",
          "RTX 5090", "NVIDIA GeForce RTX 5090", 2));

  private final HostRepository hosts;

  /** Boot wiring, sandbox mode only. */
  public DemoHosts(Pool pool) {
    this.hosts = new HostRepository(pool);
  }

  /**
   * Stores the demo sites, hosts and GPUs (the catalog's offers for them come after), and the demo
   * image templates, cached on every demo host.
   */
  public Future<Void> seed() {
    return hosts.seedDemo(SITES, HOSTS).compose(v -> DemoImages.seed(hosts.pool(),
        HOSTS.stream().map(Host::id).toArray(String[]::new)));
  }

  /**
   * Gives the demo host a new credential for its simulated agent, revoking the one before: the
   * agents of a node that ran them earlier are refused from now on, so one agent runs each host.
   */
  public Future<String> issueCredential(String hostId) {
    String credential = TokenSecrets.generate(TokenSecrets.HOST_PREFIX);
    return hosts.replaceCredential(hostId, credential).map(credential);
  }
}
