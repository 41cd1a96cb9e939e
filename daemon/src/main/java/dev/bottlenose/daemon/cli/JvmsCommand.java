package dev.bottlenose.daemon.cli;

import dev.bottlenose.daemon.attach.JvmInfo;
import dev.bottlenose.daemon.attach.LocalJvms;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParentCommand;

/** {@code jvms}: the JVMs on this host, with pid, Java version, owner and main class, and a waiting agent's mark. */
@Command(name = "jvms", description = "list local JVMs (pid, Java version, user, main class, [waiting agent])")
final class JvmsCommand implements Callable<Integer> {
  /** The marker of a JVM whose agent waits for a daemon. */
  static final String WAITING = "[waiting agent]";
  static final String CONTAINED = "[container]";

  @ParentCommand
  Main main;

  @Mixin
  JsonOption output;

  @Override
  public Integer call() {
    Console console = main.console;
    List<JvmInfo> jvms = LocalJvms.list();
    if (output.json) {
      JsonOption.print(console, JsonOption.object("jvms", jvms.stream().map(j -> {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("pid", j.pid());
        m.put("javaVersion", j.javaVersion());
        m.put("user", j.owner());
        m.put("main", j.mainClass());
        m.put("command", j.displayName());
        m.put("waitingAgent", j.waitingAgent());
        m.put("container", j.contained());
        return m;
      }).toList()));
      return 0;
    }
    if (jvms.isEmpty()) {
      console.out().println("no JVMs found (only JVMs of this user, with the attach mechanism on or a waiting agent,"
          + " are listed; in a container, those that keep performance counters)");
      return 0;
    }
    console.out().println(String.format(Locale.ROOT, "%-8s %-10s %-10s %s", "PID", "JAVA", "USER", "MAIN"));
    for (JvmInfo j : jvms) {
      console.out().println(String.format(Locale.ROOT, "%-8d %-10s %-10s %s", j.pid(), j.javaVersion(), j.owner(),
          j.displayName()) + (j.waitingAgent() ? "  " + WAITING : "") + (j.contained() ? "  " + CONTAINED : ""));
    }
    if (jvms.stream().anyMatch(JvmInfo::contained)) {
      console.out().println(CONTAINED + ": in a container (a mount namespace of its own), listed by its pid on this"
          + " machine; a search reaches it there if it shares this machine's network");
    }
    if (jvms.stream().anyMatch(JvmInfo::waitingAgent)) {
      console.out().println(WAITING + ": started with -javaagent:bottlenose-agent.jar and no options; `daemon --pid N`"
          + " connects to it without the Attach API");
    }
    return 0;
  }
}
