package dev.bottlenose.daemon.attach;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Reads a {@code java …} argv: the launcher options before the main class or jar, and what it runs. */
record JavaCommandLine(List<String> options, String main) {
  private static final Set<String> WITH_VALUE = Set.of("-cp", "-classpath", "--class-path", "-p", "--module-path",
      "--upgrade-module-path", "--add-modules", "--add-exports", "--add-opens", "--add-reads", "--limit-modules",
      "--patch-module", "--source");

  static JavaCommandLine parse(List<String> argv) {
    List<String> options = new ArrayList<>();
    for (int i = 1; i < argv.size(); i++) {
      String arg = argv.get(i);
      if (arg.equals("-jar") || arg.equals("-m") || arg.equals("--module")) {
        return new JavaCommandLine(options, i + 1 < argv.size() ? argv.get(i + 1) : "");
      }
      if (!arg.startsWith("-")) {
        return new JavaCommandLine(options, arg);
      }
      options.add(arg);
      if (WITH_VALUE.contains(arg)) {
        i++;
      }
    }
    return new JavaCommandLine(options, "");
  }
}
