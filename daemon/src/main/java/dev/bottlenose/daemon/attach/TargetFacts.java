package dev.bottlenose.daemon.attach;

import java.util.List;

/**
 * What can be learnt about a process without attaching to it: whether it runs, who owns it, whether
 * it hosts a JVM (and which JDK), and the JVM flags from its command line and environment.
 *
 * @param javaHome the JDK home, or null when not a JVM or unreadable
 * @param javaVersion the JDK version, or null when unknown
 * @param jvmFlags {@code -XX:} and other options in the order the JVM applies them (last wins)
 * @param commandLine the process's argv, empty when unreadable
 */
record TargetFacts(long pid, boolean alive, boolean jvm, String owner, String javaHome,
    JavaVersion javaVersion, List<String> jvmFlags, List<String> commandLine) {

  public TargetFacts {
    jvmFlags = List.copyOf(jvmFlags);
    commandLine = List.copyOf(commandLine);
  }

  /** The last {@code -XX:+name}/{@code -XX:-name} setting: TRUE, FALSE, or null when not set. */
  Boolean booleanFlag(String name) {
    Boolean value = null;
    for (String f : jvmFlags) {
      if (f.equals("-XX:+" + name)) {
        value = Boolean.TRUE;
      } else if (f.equals("-XX:-" + name)) {
        value = Boolean.FALSE;
      }
    }
    return value;
  }

  /** The command line as one shell-like string. */
  String commandLineText() {
    return String.join(" ", commandLine);
  }
}
