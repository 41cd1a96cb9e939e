package dev.bottlenose.agent.discovery;

import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.Resource;
import dev.bottlenose.model.ResourcePath;
import dev.bottlenose.model.ResourceTree;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/** {@code /Process/<pid>} (this JVM) and {@code /Machine/<hostname>} (its host). */
public final class ProcessDiscovery {
  private static final Pattern TOKEN = Pattern.compile("token=[^,\\s]*");

  private ProcessDiscovery() {}

  static void start(ResourceTree tree) {
    tree.put(Resource.of(Hierarchy.PROCESS.root(), "root"));
    Map<String, String> p = new LinkedHashMap<>();
    p.put("mainClass", mainClass());
    p.put("javaVersion", String.valueOf(System.getProperty("java.version")));
    p.put("javaVendor", String.valueOf(System.getProperty("java.vendor")));
    p.put("vmName", String.valueOf(System.getProperty("java.vm.name")));
    p.put("commandLine", commandLine());
    p.put("startedAtMillis", String.valueOf(ManagementFactory.getRuntimeMXBean().getStartTime()));
    tree.put(new Resource(Hierarchy.PROCESS.root().child(String.valueOf(ProcessHandle.current().pid())), "process", p));
    tree.put(Resource.of(Hierarchy.MACHINE.root(), "root"));
    Map<String, String> m = new LinkedHashMap<>();
    m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
    m.put("arch", String.valueOf(System.getProperty("os.arch")));
    m.put("processors", String.valueOf(Runtime.getRuntime().availableProcessors()));
    tree.put(new Resource(ResourcePath.of(Hierarchy.MACHINE, hostname()), "machine", m));
  }

  /** The main class (or {@code -jar} jar) from {@code sun.java.command}, or empty when unknown. */
  public static String mainClass() {
    String command = System.getProperty("sun.java.command", "").trim();
    int space = command.indexOf(' ');
    return space < 0 ? command : command.substring(0, space);
  }

  /**
   * The JVM's command line: the launcher's arguments and the main class with its arguments, with the
   * value of every {@code token=} (the channel's secret, in a {@code -javaagent} option) hidden.
   */
  public static String commandLine() {
    String jvm = String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments());
    String command = System.getProperty("sun.java.command", "");
    return TOKEN.matcher((jvm + " " + command).trim()).replaceAll("token=***");
  }

  static String hostname() {
    for (Path p : new Path[] {Path.of("/proc/sys/kernel/hostname"), Path.of("/etc/hostname")}) {
      try {
        String name = Files.readString(p, StandardCharsets.UTF_8).trim();
        if (!name.isEmpty()) {
          return name;
        }
      } catch (IOException | RuntimeException e) {
        continue;
      }
    }
    String env = System.getenv("HOSTNAME");
    if (env != null && !env.isEmpty()) {
      return env;
    }
    try {
      return java.net.InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "localhost";
    }
  }
}
