package io.gpurental.agent.facts;

import io.gpurental.agent.runtime.Commands;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Answers command lines (without the program itself) with canned results, and records every call. */
final class CannedCommands implements Commands {
  static final Path FIXTURES = Path.of("src/test/resources/host-tools").toAbsolutePath();
  /** An executable that exists, so the presence check passes; the canned answers stand for its output. */
  static final String PRESENT = "/bin/sh";
  static final String ABSENT = "/nonexistent/tool";

  final List<List<String>> calls = new ArrayList<>();
  private final Map<String, Result> answers = new LinkedHashMap<>();
  private IOException failure;

  CannedCommands answer(String args, int exit, String out) {
    answers.put(args, new Result(exit, out, ""));
    return this;
  }

  CannedCommands answerFile(String args, int exit, String fixture) {
    try {
      return answer(args, exit, Files.readString(FIXTURES.resolve(fixture)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  CannedCommands failWith(IOException e) {
    failure = e;
    return this;
  }

  @Override
  public synchronized Result run(List<String> argv, Duration timeout) throws IOException {
    calls.add(argv);
    if (failure != null) {
      throw failure;
    }
    Result result = answers.get(String.join(" ", argv.subList(1, argv.size())));
    return result != null ? result : new Result(1, "", "unexpected call " + argv);
  }
}
