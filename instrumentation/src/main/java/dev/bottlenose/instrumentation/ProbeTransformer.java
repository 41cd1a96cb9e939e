package dev.bottlenose.instrumentation;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The one retransform-capable transformer: weaves the active probes of a class into the bytes the
 * VM hands it (for a retransformation, the class's original bytes, never earlier woven ones) and
 * returns null, touching nothing, for every class without probes. Never throws: a failure is
 * counted, remembered for the manager, and answered with null.
 */
final class ProbeTransformer implements ClassFileTransformer {
  private final Map<String, List<ActiveProbe>> byClass = new ConcurrentHashMap<>();
  private final Map<String, Throwable> failures = new ConcurrentHashMap<>();
  private final AtomicLong failed = new AtomicLong();
  private final AtomicLong reported = new AtomicLong();

  @Override
  public byte[] transform(ClassLoader loader, String className, Class<?> classBeingRedefined,
      ProtectionDomain protectionDomain, byte[] classfileBuffer) {
    try {
      List<ActiveProbe> probes = className == null ? null : byClass.get(className);
      if (probes == null) {
        return null;
      }
      return Weaver.weave(classfileBuffer, probes);
    } catch (Throwable t) {
      failed.incrementAndGet();
      failures.put(className, t);
      return null;
    }
  }

  synchronized void add(ActiveProbe probe) {
    List<ActiveProbe> probes = new ArrayList<>(probes(probe.method.internalClassName()));
    probes.add(probe);
    byClass.put(probe.method.internalClassName(), List.copyOf(probes));
  }

  synchronized void remove(ActiveProbe probe) {
    String internalName = probe.method.internalClassName();
    List<ActiveProbe> probes = new ArrayList<>(probes(internalName));
    probes.remove(probe);
    if (probes.isEmpty()) {
      byClass.remove(internalName);
    } else {
      byClass.put(internalName, List.copyOf(probes));
    }
  }

  List<ActiveProbe> probes(String internalName) {
    return byClass.getOrDefault(internalName, List.of());
  }

  List<ActiveProbe> all() {
    List<ActiveProbe> all = new ArrayList<>();
    byClass.values().forEach(all::addAll);
    all.sort((a, b) -> Long.compare(a.id, b.id));
    return all;
  }

  /** Forgets an earlier failure of {@code internalName} (e.g. while some loader loaded it); it stays suppressed. */
  void clearFailure(String internalName) {
    failures.remove(internalName);
  }

  /**
   * The failure of the last weaving of {@code internalName}, cleared, or null when it succeeded.
   * The caller reports it, so it no longer counts as suppressed.
   */
  Throwable takeFailure(String internalName) {
    Throwable failure = failures.remove(internalName);
    if (failure != null) {
      reported.incrementAndGet();
    }
    return failure;
  }

  /** Weaving failures that nobody reported to a caller. */
  long suppressed() {
    return failed.get() - reported.get();
  }
}
