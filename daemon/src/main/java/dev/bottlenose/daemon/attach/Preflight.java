package dev.bottlenose.daemon.attach;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The rules that say, before attaching, what would make an attach fail or disturb the target. */
final class Preflight {
  static final int MIN_FEATURE = 17;
  private static final int DYNAMIC_LOADING_FEATURE = 21;

  private Preflight() {}

  /** Findings for {@code facts} when the daemon runs as {@code user} with the agent at {@code agentJar}. */
  static List<Finding> check(TargetFacts facts, String user, Path agentJar) {
    return check(facts, user, agentJar, false);
  }

  /**
   * As {@link #check(TargetFacts, String, Path)}; with {@code waitingAgent} the target already holds the agent,
   * waiting for a daemon on its socket, so what only stops or disturbs the Attach API does not matter.
   */
  static List<Finding> check(TargetFacts facts, String user, Path agentJar, boolean waitingAgent) {
    long pid = facts.pid();
    List<Finding> findings = new ArrayList<>();
    if (!facts.alive()) {
      findings.add(Finding.error("no process with pid " + pid));
      return findings;
    }
    if (!facts.jvm()) {
      findings.add(Finding.error("process " + pid + " (" + describe(facts) + ") is not a Java virtual machine"));
      return findings;
    }
    if (facts.owner() != null && !facts.owner().equals(user) && !"root".equals(user)) {
      findings.add(Finding.error("process " + pid + " belongs to user " + facts.owner() + " but bottlenose runs as "
          + user + "; the attach mechanism only lets the same user (or root) in: run bottlenose as " + facts.owner()));
    }
    JavaVersion version = facts.javaVersion();
    if (version != null && version.feature() > 0 && version.feature() < MIN_FEATURE) {
      findings.add(Finding.error("process " + pid + " runs Java " + version + "; the Bottlenose agent needs Java "
          + MIN_FEATURE + " or later"));
    }
    if (waitingAgent) {
      return findings;
    }
    if (Boolean.TRUE.equals(facts.booleanFlag("DisableAttachMechanism"))) {
      findings.add(Finding.error("process " + pid + " was started with -XX:+DisableAttachMechanism, so nothing can"
          + " attach to it; " + restartHint(facts, agentJar)));
    }
    if (version != null && version.feature() >= DYNAMIC_LOADING_FEATURE) {
      checkDynamicLoading(facts, agentJar, findings);
    }
    return findings;
  }

  private static void checkDynamicLoading(TargetFacts facts, Path agentJar, List<Finding> findings) {
    Boolean dynamic = facts.booleanFlag("EnableDynamicAgentLoading");
    String who = "process " + facts.pid() + " (Java " + facts.javaVersion() + ")";
    if (Boolean.FALSE.equals(dynamic)) {
      findings.add(Finding.error(who + " was started with -XX:-EnableDynamicAgentLoading, which forbids loading an"
          + " agent into it while it runs; " + restartHint(facts, agentJar)));
    } else if (dynamic == null) {
      findings.add(Finding.warning(who + " was started without -XX:+EnableDynamicAgentLoading: it will print a"
          + " warning that an agent was loaded dynamically (harmless); add -XX:+EnableDynamicAgentLoading to its"
          + " command line to silence it"));
    }
  }

  /** How to restart the target with the agent on its command line instead. */
  static String restartHint(TargetFacts facts, Path agentJar) {
    String flag = "-javaagent:" + agentJar.toAbsolutePath() + "=port=<port>,tokenFile=<one-time token file>";
    String command = facts.commandLine().isEmpty() ? "java <its arguments>" : facts.commandLineText();
    return "restart it with the agent on its command line (" + flag + "); `bottlenose daemon -- " + command
        + "` does that and fills in the port and the token file; or restart it with -javaagent:"
        + agentJar.toAbsolutePath() + " alone (in JAVA_TOOL_OPTIONS, say): that agent waits for a daemon, and"
        + " `bottlenose daemon --pid <its new pid>` connects to it without the Attach API";
  }

  private static String describe(TargetFacts facts) {
    return facts.commandLine().isEmpty() ? "command line unreadable" : facts.commandLine().get(0);
  }
}
