package dev.bottlenose.daemon.attach;

import com.sun.tools.attach.VirtualMachine;
import com.sun.tools.attach.VirtualMachineDescriptor;
import dev.bottlenose.cli.OwnJvms;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Lists the JVMs on this host that the attach mechanism can see, those with a waiting agent, and those in containers
 * (a mount namespace of their own) that keep performance counters.
 */
public final class LocalJvms {
  private LocalJvms() {}

  /**
   * Every visible JVM except this one and Bottlenose's own ({@link OwnJvms}), by pid: those the attach mechanism
   * lists, those whose waiting agent answers on its socket ({@link AgentSocket}), attach disabled or not, and those
   * in containers ({@link #contained}), by their pid on this machine.
   */
  public static List<JvmInfo> list() {
    long self = ProcessHandle.current().pid();
    Set<Long> waiting = AgentSocket.waiting();
    Map<Long, JvmInfo> jvms = new TreeMap<>();
    for (VirtualMachineDescriptor d : VirtualMachine.list()) {
      long pid = parsePid(d.id());
      if (pid > 0 && pid != self && !OwnJvms.isOwn(d.displayName())) {
        jvms.put(pid, describe(pid, d.displayName(), waiting.contains(pid)));
      }
    }
    Set<Long> more = new java.util.TreeSet<>(waiting);
    more.addAll(contained());
    for (long pid : more) {
      if (pid != self && !jvms.containsKey(pid) && ProcInspector.inspect(pid).jvm()) {
        JvmInfo jvm = describe(pid, "", waiting.contains(pid));
        if (!OwnJvms.isOwn(jvm.displayName())) {
          jvms.put(pid, jvm);
        }
      }
    }
    return new ArrayList<>(jvms.values());
  }

  /** The JVM with this pid, from {@code /proc} and its performance counters. */
  public static Optional<JvmInfo> find(long pid) {
    boolean waiting = AgentSocket.answering(pid).isPresent();
    for (VirtualMachineDescriptor d : VirtualMachine.list()) {
      if (parsePid(d.id()) == pid) {
        return Optional.of(describe(pid, d.displayName(), waiting));
      }
    }
    TargetFacts facts = ProcInspector.inspect(pid);
    return facts.jvm() ? Optional.of(describe(pid, "", waiting)) : Optional.empty();
  }

  /**
   * What {@code /proc} says of {@code pid}; its version, when {@code /proc} does not tell, from its performance
   * counters. Listing runs nothing in a JVM: asking one for its system properties would run Java code in it, and the
   * classes that loads can throw a warm program's compiled code away.
   */
  static JvmInfo describe(long pid, String displayName, boolean waitingAgent) {
    TargetFacts facts = ProcInspector.inspect(pid);
    String name = displayName == null || displayName.isBlank()
        ? JavaCommandLine.parse(facts.commandLine()).main() : displayName;
    JavaVersion known = facts.javaVersion() != null ? facts.javaVersion() : PerfCounters.javaVersion(pid);
    String version = known != null ? known.text() : "?";
    return new JvmInfo(pid, name, version, facts.owner() == null ? "?" : facts.owner(), waitingAgent,
        !TargetPaths.sameMounts(pid));
  }

  /**
   * The JVMs in containers: processes in a mount namespace other than this process's that keep the JVM's performance
   * counters where {@code jstat} finds them, {@code /proc/<pid>/root/tmp/hsperfdata_<user>/<their pid in there>}.
   * Processes this user may not look into, and JVMs run with {@code -XX:-UsePerfData}, are not found.
   */
  static Set<Long> contained() {
    Set<Long> found = new java.util.TreeSet<>();
    try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
      for (Path dir : procs) {
        long pid = parsePid(dir.getFileName().toString());
        if (pid > 0 && !TargetPaths.sameMounts(pid) && keepsCounters(dir, TargetPaths.namespacePid(pid))) {
          found.add(pid);
        }
      }
    } catch (IOException | RuntimeException e) {
      // no /proc: not Linux
    }
    return found;
  }

  private static boolean keepsCounters(Path proc, long innerPid) {
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(proc.resolve("root").resolve("tmp"), "hsperfdata_*")) {
      for (Path d : dirs) {
        if (Files.isRegularFile(d.resolve(Long.toString(innerPid)))) {
          return true;
        }
      }
    } catch (IOException | RuntimeException e) {
      // not ours to look into
    }
    return false;
  }

  private static long parsePid(String id) {
    try {
      return Long.parseLong(id);
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
