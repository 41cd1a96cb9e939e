package dev.bottlenose.daemon.attach;

import com.sun.tools.attach.VirtualMachine;
import com.sun.tools.attach.VirtualMachineDescriptor;
import dev.bottlenose.cli.OwnJvms;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** Lists the JVMs on this host that the attach mechanism can see. */
public final class LocalJvms {
  private LocalJvms() {}

  /** Every visible JVM except this one and Bottlenose's own ({@link OwnJvms}), by pid. */
  public static List<JvmInfo> list() {
    long self = ProcessHandle.current().pid();
    List<JvmInfo> jvms = new ArrayList<>();
    for (VirtualMachineDescriptor d : VirtualMachine.list()) {
      long pid = parsePid(d.id());
      if (pid > 0 && pid != self && !OwnJvms.isOwn(d.displayName())) {
        jvms.add(describe(pid, d.displayName()));
      }
    }
    jvms.sort(Comparator.comparingLong(JvmInfo::pid));
    return jvms;
  }

  /** The JVM with this pid, from {@code /proc} (falling back to the attach mechanism for its version). */
  public static Optional<JvmInfo> find(long pid) {
    for (VirtualMachineDescriptor d : VirtualMachine.list()) {
      if (parsePid(d.id()) == pid) {
        return Optional.of(describe(pid, d.displayName()));
      }
    }
    TargetFacts facts = ProcInspector.inspect(pid);
    return facts.jvm() ? Optional.of(describe(pid, "")) : Optional.empty();
  }

  static JvmInfo describe(long pid, String displayName) {
    TargetFacts facts = ProcInspector.inspect(pid);
    String name = displayName == null || displayName.isBlank()
        ? JavaCommandLine.parse(facts.commandLine()).main() : displayName;
    String version = facts.javaVersion() != null ? facts.javaVersion().text() : versionByAttach(pid);
    return new JvmInfo(pid, name, version, facts.owner() == null ? "?" : facts.owner());
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
