package dev.bottlenose.daemon.attach;

import com.sun.tools.attach.AgentInitializationException;
import com.sun.tools.attach.AgentLoadException;
import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import dev.bottlenose.agent.AgentOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Brings the agent into a running JVM, after a preflight: hands the options to its waiting agent when it has one
 * ({@link AgentSocket}), else loads the agent through the Attach API.
 */
public final class Attacher {
  private Attacher() {}

  /** Runs the preflight for attaching through the Attach API; throws with every error found, returns the warnings. */
  public static List<Finding> preflight(long pid, Path agentJar) throws AttachException {
    return preflight(pid, agentJar, false);
  }

  /**
   * Runs the preflight; with {@code waitingAgent} (the target has one: {@link #waitingAgent}) the Attach API's
   * own rules (attach disabled, dynamic loading off or warned about) do not apply. Throws with every error found,
   * returns the warnings.
   */
  public static List<Finding> preflight(long pid, Path agentJar, boolean waitingAgent) throws AttachException {
    List<Finding> findings = Preflight.check(ProcInspector.inspect(pid), System.getProperty("user.name"), agentJar,
        waitingAgent);
    List<Finding> errors = findings.stream().filter(Finding::isError).collect(Collectors.toList());
    if (!errors.isEmpty()) {
      throw new AttachException("cannot attach to process " + pid + ": "
          + errors.stream().map(Finding::message).collect(Collectors.joining("; ")));
    }
    return findings;
  }

  /** The socket of {@code pid}'s waiting agent, if it has one that answers now. */
  public static Optional<Path> waitingAgent(long pid) {
    return AgentSocket.answering(pid);
  }

  /** Hands {@code options} to {@code pid}'s waiting agent on {@code socket}, instead of loading the agent. */
  public static void handOver(long pid, Path socket, AgentOptions options) throws AttachException {
    AgentSocket.hand(pid, socket, options);
  }

  /**
   * Attaches to {@code pid} and loads the agent with {@code options}. Answers what the JIT had compiled just before,
   * read before anything else is asked of the target ({@link CompiledBeforeAttach}; {@code NONE} when the code list
   * cannot be read, or the JVM keeps its compiled code when a class is changed).
   */
  public static CompiledBeforeAttach loadAgent(long pid, Path agentJar, AgentOptions options) throws AttachException {
    VirtualMachine vm = open(pid);
    try {
      // the code list first: reading the system properties (the version check's fallback) runs Java code in the
      // target, and the classes it loads made a warm program's hottest method not entrant (one to three of its
      // three or four pieces of code) before the list was read, so that compiling it again seemed the program's own
      // JIT time
      CompiledBeforeAttach listed = compiledCode(vm);
      int feature = checkVersion(pid, vm);
      CompiledBeforeAttach compiled = feature >= CompiledBeforeAttach.KEEPS_COMPILED_CODE_FROM
          ? CompiledBeforeAttach.NONE : listed;
      vm.loadAgent(agentJar.toString(), options.toString());
      return compiled;
    } catch (AgentLoadException | AgentInitializationException e) {
      throw new AttachException("the JVM " + pid + " refused the agent " + agentJar + ": " + e.getMessage()
          + " (see the target's stderr for a line starting with [bottlenose])", e);
    } catch (IOException e) {
      throw new AttachException("loading the agent into process " + pid + " failed: " + e.getMessage(), e);
    } finally {
      detach(vm);
    }
  }

  /** The target's code list, before anything of the tool changes a class; never throws (the search works without). */
  private static CompiledBeforeAttach compiledCode(VirtualMachine vm) {
    try {
      return CompiledBeforeAttach.parse(JCmd.run(vm, "Compiler.codelist"));
    } catch (IOException | ReflectiveOperationException | RuntimeException e) {
      return CompiledBeforeAttach.NONE;
    }
  }

  private static VirtualMachine open(long pid) throws AttachException {
    try {
      return VirtualMachine.attach(Long.toString(pid));
    } catch (AttachNotSupportedException | IOException e) {
      throw new AttachException("could not attach to process " + pid + ": " + e.getMessage()
          + " (is it a JVM run by this user, started without -XX:+DisableAttachMechanism, and not hung?)", e);
    }
  }

  /**
   * The target's Java feature version (0: unreadable), refused below {@link Preflight#MIN_FEATURE}: from its
   * performance counters, which runs nothing in it; from its system properties only when it keeps no counters this
   * process may read.
   */
  private static int checkVersion(long pid, VirtualMachine vm) throws IOException, AttachException {
    JavaVersion counted = PerfCounters.javaVersion(pid);
    String version = counted != null ? counted.text() : vm.getSystemProperties().getProperty("java.version", "");
    JavaVersion parsed = JavaVersion.parse(version);
    if (parsed.feature() > 0 && parsed.feature() < Preflight.MIN_FEATURE) {
      throw new AttachException("process " + pid + " runs Java " + version + "; the Bottlenose agent needs Java "
          + Preflight.MIN_FEATURE + " or later");
    }
    return parsed.feature();
  }

  private static void detach(VirtualMachine vm) {
    try {
      vm.detach();
    } catch (IOException e) {
      // the target may already be gone; nothing is left to release
    }
  }
}
