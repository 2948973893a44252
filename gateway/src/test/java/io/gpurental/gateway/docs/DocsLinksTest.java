package io.gpurental.gateway.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link of the README and the docs pages (and the module READMEs they send readers
 * to) names a file that exists and, with a {@code #fragment}, a heading of that file, as GitHub
 * makes anchors of headings. Moving a section without its links fails here.
 */
class DocsLinksTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
  private static final Pattern HEADING = Pattern.compile("^(#{1,6})\\s+(.*?)\\s*#*\\s*$");

  @Test
  void everyRelativeLinkResolves() throws IOException {
    List<String> broken = new ArrayList<>();
    int checked = 0;
    for (Path page : pages()) {
      for (String target : links(page)) {
        checked++;
        String problem = problem(page, target);
        if (problem != null) {
          broken.add(ROOT.relativize(page) + ": (" + target + ") " + problem);
        }
      }
    }
    assertTrue(checked > 50, "the pages' links were found: " + checked);
    assertEquals(List.of(), broken);
  }

  @Test
  void anchorsAreMadeAsGitHubMakesThem() {
    assertEquals("time-to-ready-the-ready-guarantee-and-credits",
        slug("Time-to-ready, the ready guarantee and credits"));
    assertEquals("post-apiv1agentenroll-enrolment-token", slug("`POST /api/v1/agent/enroll` (enrolment token)"));
    assertEquals("settings-terms-of-sale", slug("Settings (terms of sale)"));
  }

  @Test
  void aMissingFileOrHeadingIsReported() throws IOException {
    Path readme = ROOT.resolve("README.md");
    assertTrue(problem(readme, "docs/no-such-page.md").contains("no file"));
    assertTrue(problem(readme, "docs/renting.md#no-such-heading").contains("no heading"));
    assertEquals(null, problem(readme, "docs/renting.md#reservations"));
  }

  private static List<Path> pages() throws IOException {
    List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("gateway/README.md"),
        ROOT.resolve("host-agent/README.md"), ROOT.resolve("web-ui/README.md")));
    try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    return pages;
  }

  /** Relative link targets outside code blocks. */
  private static List<String> links(Path page) throws IOException {
    List<String> targets = new ArrayList<>();
    boolean code = false;
    for (String line : Files.readAllLines(page)) {
      if (line.strip().startsWith("```")) {
        code = !code;
        continue;
      }
      if (code) {
        continue;
      }
      Matcher m = LINK.matcher(line.replaceAll("`[^`]*`", ""));
      while (m.find()) {
        String target = m.group(1);
        if (!target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*") && !target.startsWith("/")) {
          targets.add(target);
        }
      }
    }
    return targets;
  }

  /** Null when the target resolves, else what is wrong. */
  private static String problem(Path page, String target) throws IOException {
    int hash = target.indexOf('#');
    String file = hash < 0 ? target : target.substring(0, hash);
    Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
    if (!Files.exists(resolved)) {
      return "no file " + ROOT.relativize(resolved);
    }
    if (hash < 0) {
      return null;
    }
    String anchor = target.substring(hash + 1);
    if (!resolved.toString().endsWith(".md") || !anchors(resolved).contains(anchor)) {
      return "no heading #" + anchor + " in " + ROOT.relativize(resolved);
    }
    return null;
  }

  private static Set<String> anchors(Path page) throws IOException {
    Set<String> anchors = new HashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    boolean code = false;
    for (String line : Files.readAllLines(page)) {
      if (line.strip().startsWith("```")) {
        code = !code;
        continue;
      }
      Matcher m = HEADING.matcher(line);
      if (!code && m.matches()) {
        String slug = slug(m.group(2));
        int n = seen.merge(slug, 1, Integer::sum);
        anchors.add(n == 1 ? slug : slug + "-" + (n - 1));
      }
    }
    return anchors;
  }

  /** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
  static String slug(String heading) {
    return heading.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
  }
}
