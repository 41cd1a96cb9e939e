package dev.bottlenose.daemon.attach;

import com.sun.tools.attach.VirtualMachine;
import com.sun.tools.attach.VirtualMachineDescriptor;
import dev.bottlenose.cli.OwnJvms;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/** Lists the JVMs on this host that the attach mechanism can see, and those with a waiting agent. */
public final class LocalJvms {
  private LocalJvms() {}

  /**
   * Every visible JVM except this one and Bottlenose's own ({@link OwnJvms}), by pid: those the attach mechanism
   * lists, and those whose waiting agent answers on its socket ({@link AgentSocket}), attach disabled or not.
   */
  public static List<JvmInfo> list() {
    long self = ProcessHandle.current().pid();
    Set<Long> waiting = AgentSocket.waiting();
    Map<Long, JvmInfo> jvms = new TreeMap<>();
    for (VirtualMachineDescriptor d : VirtualMachine.list()) {
      long pid = parsePid(d.id());
      if (pid > 0 && pid != self && !OwnJvms.isOwn(d.displayName())) {
        jvms.put(pid, describe(pid, d.displayName(), waiting.contains(pid), true));
      }
    }
    for (long pid : waiting) {
      if (pid != self && !jvms.containsKey(pid) && ProcInspector.inspect(pid).jvm()) {
        JvmInfo jvm = describe(pid, "", true, false);
        if (!OwnJvms.isOwn(jvm.displayName())) {
          jvms.put(pid, jvm);
        }
      }
    }
    return new ArrayList<>(jvms.values());
  }

  /** The JVM with this pid, from {@code /proc} (falling back to the attach mechanism for its version). */
  public static Optional<JvmInfo> find(long pid) {
    boolean waiting = AgentSocket.answering(pid).isPresent();
    for (VirtualMachineDescriptor d : VirtualMachine.list()) {
      if (parsePid(d.id()) == pid) {
        return Optional.of(describe(pid, d.displayName(), waiting, true));
      }
    }
    TargetFacts facts = ProcInspector.inspect(pid);
    return facts.jvm() ? Optional.of(describe(pid, "", waiting, !waiting)) : Optional.empty();
  }

  /**
   * What {@code /proc} says of {@code pid}; its version, when {@code /proc} does not tell, from the attach mechanism
   * if {@code attachable} (attaching to a JVM that refuses it would make it print a thread dump).
   */
  static JvmInfo describe(long pid, String displayName, boolean waitingAgent, boolean attachable) {
    TargetFacts facts = ProcInspector.inspect(pid);
    String name = displayName == null || displayName.isBlank()
        ? JavaCommandLine.parse(facts.commandLine()).main() : displayName;
    String version = facts.javaVersion() != null ? facts.javaVersion().text() : attachable ? versionByAttach(pid) : "?";
    return new JvmInfo(pid, name, version, facts.owner() == null ? "?" : facts.owner(), waitingAgent);
  }

  private static String versionByAttach(long pid) {
    try {
      VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
      try {
        return vm.getSystemProperties().getProperty("java.version", "?");
      } finally {
        vm.detach();
      }
    } catch (Exception e) {
      return "?";
    }
  }

  private static long parsePid(String id) {
    try {
      return Long.parseLong(id);
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
