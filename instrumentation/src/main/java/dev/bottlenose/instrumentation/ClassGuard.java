package dev.bottlenose.instrumentation;

import dev.bottlenose.probe.Probes;
import java.lang.instrument.Instrumentation;
import java.util.List;

/**
 * Which loaded classes probes may go into. Conservative: besides what the VM refuses, nothing of
 * the Bottlenose code inside the target (agent, instrumentation, probe runtime, resource model) and nothing the probe runtime or the VM's method-handle machinery runs on.
 */
final class ClassGuard {
  private static final List<String> REFUSED_PREFIXES = List.of(
      "dev.bottlenose.agent.", "dev.bottlenose.instrumentation.", "dev.bottlenose.probe.", "dev.bottlenose.model.",
      "java.lang.invoke.", "java.lang.ref.", "jdk.internal.", "sun.", "com.sun.");
  private static final List<String> REFUSED_CLASSES = List.of(
      "java.lang.Object", "java.lang.Class", "java.lang.System", "java.lang.Thread", "java.lang.ThreadLocal",
      "java.lang.ThreadLocal$ThreadLocalMap", "java.lang.Math", "java.lang.StrictMath", "java.lang.Throwable");

  private ClassGuard() {}

  /** Why probes cannot go into {@code c}, or null when they can. */
  static String refusal(Instrumentation instrumentation, Class<?> c) {
    String name = c.getName();
    if (c.isPrimitive() || c.isArray()) {
      return name + " is a primitive or array type";
    }
    if (c.isHidden()) {
      return name + " is a hidden class (a lambda or a runtime-generated class)";
    }
    if (!instrumentation.isModifiableClass(c)) {
      return "the VM does not allow modifying " + name;
    }
    if (REFUSED_CLASSES.contains(name) || REFUSED_PREFIXES.stream().anyMatch(name::startsWith)) {
      return name + " is part of what probes themselves run on";
    }
    if (!seesProbeRuntime(c.getClassLoader())) {
      return "the probe runtime is not visible from the class loader of " + name
          + " (BootstrapRuntime.install must run before the probe manager is created)";
    }
    return null;
  }

  /** Whether code loaded by {@code loader} resolves the probe runtime to the one the manager reads. */
  private static boolean seesProbeRuntime(ClassLoader loader) {
    try {
      return Class.forName(Probes.class.getName(), false, loader) == Probes.class;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }
}
