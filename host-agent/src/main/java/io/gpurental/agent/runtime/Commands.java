package io.gpurental.agent.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs a program and waits for it (blocking: only on worker threads). An interface so that the
 * host tools (nvidia-smi, iptables, ssh-keygen) can be answered with canned output in tests.
 */
public interface Commands {

  Result run(List<String> argv, Duration timeout) throws IOException;

  /** What a finished program left behind. */
  record Result(int exit, String out, String err) {
    public boolean ok() {
      return exit == 0;
    }

    /** A short line for logs and failure reasons. */
    public String summary() {
      String text = (err.isBlank() ? out : err).strip();
      return text.length() > 300 ? text.substring(text.length() - 300) : text;
    }
  }

  /** The real thing: {@link ProcessBuilder}, both streams captured, killed after the timeout. */
  static Commands system() {
    return (argv, timeout) -> {
      Process process = new ProcessBuilder(argv).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
      CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
      String out = read(process.getInputStream());
      try {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
          process.destroyForcibly();
          throw new IOException(argv.get(0) + " did not finish within " + timeout.toSeconds() + " s");
        }
        return new Result(process.exitValue(), out, err.join());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        process.destroyForcibly();
        throw new IOException("interrupted while running " + argv.get(0), e);
      }
    };
  }

  private static String read(InputStream in) {
    try (in) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
