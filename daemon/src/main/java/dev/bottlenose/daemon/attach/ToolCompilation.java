package dev.bottlenose.daemon.attach;

import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Asks a target's JIT to leave the agent's own code to C1: a compiler directive ({@code jcmd
 * Compiler.directives_add}, sent over the Attach API, so nothing is loaded into the target for it) that
 * excludes the agent, its relocated ASM, the instrumentation and the resource model from C2. Their code runs
 * when the daemon asks (requests, discovery digests, retransformations), rarely enough that C1's code is
 * fast enough, and C2 compiling it was the JIT's largest job in a target's first search (0.7 of 1.4 s of
 * compiling on the compute benchmark). The probes' runtime ({@code dev.bottlenose.probe}) is left out of the
 * directive: C2 must stay free to inline it into the program's instrumented methods; so are the calibrations'
 * timed loops ({@link #KEPT}).
 *
 * <p>The directive is added once per JVM (an attach that finds it there adds nothing) and stays after the
 * daemons leave: it matches only Bottlenose's classes, and {@code Compiler.directives_remove} would remove
 * whichever directive is on top, perhaps another tool's.
 */
public final class ToolCompilation {
  /** The class patterns excluded from C2 (JVM internal names, prefix matches). */
  static final List<String> EXCLUDED = List.of("dev/bottlenose/agent/*.*", "dev/bottlenose/instrumentation/*.*",
      "dev/bottlenose/model/*.*");
  /**
   * Within those, the calibrations: their timed loops must run as the program's compiled code does, or a probe
   * (and a virtual call) would be priced at C1's speed. A directive file's first directive is matched first.
   */
  static final List<String> KEPT = List.of("dev/bottlenose/agent/Calibration*.*",
      "dev/bottlenose/instrumentation/Calibration*.*");

  private ToolCompilation() {
  }

  /** The directive's JSON text. */
  static String directive() {
    return "[{\"match\": [\"" + String.join("\", \"", KEPT) + "\"], \"c2\": {\"Exclude\": false}},\n"
        + " {\"match\": [\"" + String.join("\", \"", EXCLUDED) + "\"], \"c2\": {\"Exclude\": true}}]\n";
  }

  /**
   * Adds the directive to {@code pid}'s JIT unless it is there already. Answers what happened, in words for a
   * status line: {@code added}, {@code already there}, or {@code not added: <why>} (never throws: the search
   * works without it, only the JIT's cost in the target is higher).
   */
  public static String limit(long pid) {
    VirtualMachine vm;
    try {
      TargetFacts facts = ProcInspector.inspect(pid);
      if (!facts.jvm()) {
        // Attaching signals the process (SIGQUIT) and waits 10 s for a JVM to answer.
        return "not added: process " + pid + " is not a JVM";
      }
      if (Boolean.TRUE.equals(facts.booleanFlag("DisableAttachMechanism"))) {
        // A launched target may refuse attaching; asking anyway would only make it print a thread dump.
        return "not added: the target was started with -XX:+DisableAttachMechanism";
      }
      vm = VirtualMachine.attach(Long.toString(pid));
    } catch (AttachNotSupportedException | IOException | RuntimeException e) {
      return "not added: could not attach: " + e.getMessage();
    }
    Path file = null;
    try {
      if (JCmd.run(vm, "Compiler.directives_print").contains(EXCLUDED.get(0))) {
        return "already there";
      }
      file = Files.createTempFile("bottlenose-directive-", ".json");
      Files.writeString(file, directive(), StandardCharsets.UTF_8);
      String out = JCmd.run(vm, "Compiler.directives_add " + file);
      return out.contains("2 compiler directives added") ? "added" : "not added: " + out.strip();
    } catch (IOException | ReflectiveOperationException | RuntimeException e) {
      return "not added: " + (e instanceof InvocationTargetException ite ? ite.getCause() : e);
    } finally {
      try {
        vm.detach();
        if (file != null) {
          Files.deleteIfExists(file);
        }
      } catch (IOException e) {
        // the target may be gone; a temporary file left behind is harmless
      }
    }
  }
}
