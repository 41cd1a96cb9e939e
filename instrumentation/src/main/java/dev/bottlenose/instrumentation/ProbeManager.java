package dev.bottlenose.instrumentation;

import dev.bottlenose.instrumentation.ProbeException.Reason;
import dev.bottlenose.model.MethodRef;
import dev.bottlenose.probe.Probes;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Inserts and removes probes in the running JVM with {@code retransformClasses}. Probes in one method
 * compose; removing the last probe of a class restores the class's original bytes. One per JVM,
 * created after {@link BootstrapRuntime#install}. Thread-safe.
 */
public final class ProbeManager {
  private final Instrumentation instrumentation;
  private final ProbeTransformer transformer = new ProbeTransformer();
  private final SlotAllocator slots = new SlotAllocator();
  private final Calibration calibration;
  private final Object lock = new Object();
  private long nextId = 1;
  private long retransformNanos;
  private long retiredExecutions;
  private double retiredProbeNanos;

  public ProbeManager(Instrumentation instrumentation) {
    if (instrumentation == null || !instrumentation.isRetransformClassesSupported()) {
      throw new IllegalArgumentException("an instrumentation that can retransform classes is required");
    }
    this.instrumentation = instrumentation;
    Probes.sizer = instrumentation::getObjectSize;
    this.calibration = Calibration.measure(slots);
    instrumentation.addTransformer(transformer, true);
  }

  public InsertResult insert(ProbeRequest request) throws ProbeException {
    synchronized (lock) {
      List<Class<?>> classes = modifiableClasses(request.method().className());
      MethodRef method = MethodResolver.resolve(classes.get(0), request.method());
      ActiveProbe probe = newProbe(request, method);
      transformer.add(probe);
      try {
        return new InsertResult(probe.id, method, retransform(classes, method.internalClassName()));
      } catch (ProbeException e) {
        transformer.remove(probe);
        retransformQuietly(classes);
        freeSlots(probe);
        throw e;
      }
    }
  }

  public RemoveResult remove(long probeId) throws ProbeException {
    synchronized (lock) {
      ActiveProbe probe = transformer.all().stream().filter(p -> p.id == probeId).findFirst()
          .orElseThrow(() -> new ProbeException(Reason.NO_SUCH_PROBE, "no active probe with id " + probeId));
      List<RemoveResult> removed = removeFromClass(probe.method.className(), List.of(probe));
      if (removed.isEmpty()) {
        throw new ProbeException(Reason.TRANSFORM_FAILED, "probe " + probeId + " could not be removed from "
            + probe.method.className() + "; it stays active");
      }
      return removed.get(0);
    }
  }

  /** Removes every probe {@code requester} asked for (all probes when null); never throws. */
  public List<RemoveResult> removeAll(String requester) {
    synchronized (lock) {
      Map<String, List<ActiveProbe>> byClass = new LinkedHashMap<>();
      for (ActiveProbe p : transformer.all()) {
        if (requester == null || requester.equals(p.requester)) {
          byClass.computeIfAbsent(p.method.className(), k -> new ArrayList<>()).add(p);
        }
      }
      List<RemoveResult> results = new ArrayList<>();
      byClass.forEach((className, probes) -> results.addAll(removeFromClass(className, probes)));
      return results;
    }
  }

  public List<LedgerEntry> ledger() {
    return transformer.all().stream().map(ActiveProbe::toLedgerEntry).toList();
  }

  public List<ProbeReading> read() {
    return transformer.all().stream().map(Readings::read).toList();
  }

  public ProbeCost cost() {
    synchronized (lock) {
      long executions = retiredExecutions;
      double probeNanos = retiredProbeNanos;
      for (ActiveProbe p : transformer.all()) {
        long n = Readings.executions(p);
        executions += n;
        probeNanos += n * calibration.nanosPerExecution(p.kind);
      }
      return new ProbeCost(executions, Math.round(probeNanos), retransformNanos);
    }
  }

  /**
   * The class's bytes as the JVM would hand them to a transformer now, with every probe of every
   * agent applied (for checking that removal restored the original bytes exactly).
   */
  public byte[] currentClassBytes(String className) throws ProbeException {
    synchronized (lock) {
      Class<?> target = modifiableClasses(className).get(0);
      Capture capture = new Capture(target);
      instrumentation.addTransformer(capture, true);
      try {
        retransform(List.of(target), target.getName().replace('.', '/'));
      } finally {
        instrumentation.removeTransformer(capture);
      }
      return capture.bytes;
    }
  }

  /** Throwables caught inside probes or transformers and swallowed so the application never saw them. */
  public long suppressedErrors() {
    return transformer.suppressed() + Probes.suppressed();
  }

  private List<Class<?>> modifiableClasses(String className) throws ProbeException {
    List<Class<?>> classes = new ArrayList<>();
    for (Class<?> c : instrumentation.getAllLoadedClasses()) {
      if (c.getName().equals(className)) {
        classes.add(c);
      }
    }
    if (classes.isEmpty()) {
      throw new ProbeException(Reason.NO_SUCH_CLASS, "no loaded class named " + className);
    }
    for (Class<?> c : classes) {
      String refusal = ClassGuard.refusal(instrumentation, c);
      if (refusal != null) {
        throw new ProbeException(Reason.UNMODIFIABLE_CLASS, "cannot probe " + className + ": " + refusal);
      }
    }
    return classes;
  }

  private ActiveProbe newProbe(ProbeRequest request, MethodRef method) throws ProbeException {
    int slot = -1;
    AllocationSites sites = null;
    if (request.kind() == ProbeKind.ALLOCATION) {
      sites = new AllocationSites(slots);
    } else {
      slot = slots.allocate();
      if (slot < 0) {
        throw new ProbeException(Reason.TOO_MANY_PROBES, "all " + Probes.SLOTS + " probe slots are in use");
      }
    }
    return new ActiveProbe(nextId++, method, request.kind(), request.callee(), request.requester(), slot, sites);
  }

  private List<RemoveResult> removeFromClass(String className, List<ActiveProbe> probes) {
    probes.forEach(transformer::remove);
    List<Class<?>> classes = loadedClasses(className);
    long nanos;
    try {
      nanos = retransform(classes, probes.get(0).method.internalClassName());
    } catch (ProbeException e) {
      probes.forEach(transformer::add);
      retransformQuietly(classes);
      return List.of();
    }
    boolean restored = transformer.probes(probes.get(0).method.internalClassName()).isEmpty();
    List<RemoveResult> results = new ArrayList<>();
    for (ActiveProbe p : probes) {
      long executions = Readings.executions(p);
      retiredExecutions += executions;
      retiredProbeNanos += executions * calibration.nanosPerExecution(p.kind);
      freeSlots(p);
      results.add(new RemoveResult(p.id, className, nanos, restored));
    }
    return results;
  }

  private List<Class<?>> loadedClasses(String className) {
    List<Class<?>> classes = new ArrayList<>();
    for (Class<?> c : instrumentation.getAllLoadedClasses()) {
      if (c.getName().equals(className)) {
        classes.add(c);
      }
    }
    return classes;
  }

  /** Retransforms {@code classes}; on any failure the VM keeps what it had and this throws. */
  private long retransform(List<Class<?>> classes, String internalName) throws ProbeException {
    if (classes.isEmpty()) {
      return 0;
    }
    transformer.clearFailure(internalName);
    long start = System.nanoTime();
    try {
      instrumentation.retransformClasses(classes.toArray(new Class<?>[0]));
    } catch (Throwable t) {
      throw new ProbeException(Reason.TRANSFORM_FAILED, "the VM refused the retransformation of "
          + classes.get(0).getName() + ": " + t, t);
    } finally {
      retransformNanos += System.nanoTime() - start;
    }
    Throwable failure = transformer.takeFailure(internalName);
    if (failure != null) {
      throw new ProbeException(Reason.TRANSFORM_FAILED, "weaving " + classes.get(0).getName() + " failed: " + failure, failure);
    }
    return System.nanoTime() - start;
  }

  private void retransformQuietly(List<Class<?>> classes) {
    try {
      retransform(classes, classes.get(0).getName().replace('.', '/'));
    } catch (ProbeException | RuntimeException ignored) {
      // the class keeps what the VM accepted last; the caller reports the first failure
    }
  }

  private void freeSlots(ActiveProbe p) {
    slots.free(p.slot);
    if (p.sites != null) {
      p.sites.all().forEach(s -> slots.free(s.slot()));
    }
  }

  /** Registered last for one retransformation: keeps the bytes the earlier transformers produced. */
  private static final class Capture implements ClassFileTransformer {
    private final Class<?> target;
    private byte[] bytes;

    Capture(Class<?> target) {
      this.target = target;
    }

    @Override
    public byte[] transform(ClassLoader loader, String className, Class<?> classBeingRedefined,
        ProtectionDomain protectionDomain, byte[] classfileBuffer) {
      if (classBeingRedefined == target) {
        bytes = classfileBuffer.clone();
      }
      return null;
    }
  }
}
