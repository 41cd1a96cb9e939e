package dev.bottlenose.instrumentation;

import dev.bottlenose.instrumentation.ProbeException.Reason;
import dev.bottlenose.model.MethodRef;
import dev.bottlenose.probe.Probes;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Inserts and removes probes in the running JVM with {@code retransformClasses}, one call per batch of
 * probes whatever their classes. Probes in one method compose; removing the last probe of a class restores
 * the class's original bytes. One per JVM,
 * created after {@link BootstrapRuntime#install}. Thread-safe.
 */
public final class ProbeManager {
  private final Instrumentation instrumentation;
  private final ProbeTransformer transformer = new ProbeTransformer();
  private final SlotAllocator slots = new SlotAllocator();
  /** Refined at each {@link #cost} until it settles; replaced under the manager's lock. */
  private volatile Calibration calibration;
  private final Object lock = new Object();
  private long nextId = 1;
  private long retransformNanos;
  private long retransformations;
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
    InsertOutcome outcome = insertAll(List.of(request)).get(0);
    if (!outcome.ok()) {
      throw outcome.failure();
    }
    return outcome.result();
  }

  /**
   * Inserts every request with one retransformation of all the classes they go into. A request that cannot
   * be honoured fails alone, with the reason and message {@link #insert} gives; when the VM refuses the
   * batch, its classes are retransformed one by one and only the refused class's probes fail. Each probe
   * reports its retransformation's time divided by the number of probes it inserted. Outcomes in request order.
   */
  public List<InsertOutcome> insertAll(List<ProbeRequest> requests) {
    synchronized (lock) {
      InsertOutcome[] outcomes = new InsertOutcome[requests.size()];
      Map<String, List<Class<?>>> loaded = loadedClasses(requests.stream().map(r -> r.method().className()).toList());
      Map<String, ClassBatch> batches = new LinkedHashMap<>();
      for (int i = 0; i < requests.size(); i++) {
        ProbeRequest request = requests.get(i);
        try {
          List<Class<?>> classes = modifiable(request.method().className(), loaded);
          ActiveProbe probe = newProbe(request, MethodResolver.resolve(classes.get(0), request.method()));
          transformer.add(probe);
          ClassBatch b = batches.computeIfAbsent(probe.method.className(), ClassBatch::new);
          b.classes = classes;
          b.add(i, probe);
        } catch (ProbeException e) {
          outcomes[i] = InsertOutcome.failed(e);
        }
      }
      retransform(batches.values());
      for (ClassBatch b : batches.values()) {
        if (b.failure != null) {
          b.probes.forEach(transformer::remove);
          retransformQuietly(b.classes);
          b.probes.forEach(this::freeSlots);
        }
        for (int k = 0; k < b.probes.size(); k++) {
          ActiveProbe p = b.probes.get(k);
          outcomes[b.positions.get(k)] = b.failure != null ? InsertOutcome.failed(b.failure)
              : InsertOutcome.inserted(new InsertResult(p.id, p.method, b.nanosPerProbe));
        }
      }
      return List.of(outcomes);
    }
  }

  public RemoveResult remove(long probeId) throws ProbeException {
    RemoveOutcome outcome = removeMany(List.of(probeId)).get(0);
    if (!outcome.ok()) {
      throw outcome.failure();
    }
    return outcome.result();
  }

  /**
   * Removes the probes with one retransformation of all their classes; an unknown id, or a class the VM
   * will not retransform back, fails alone (those probes stay active). Outcomes in the order of {@code probeIds}.
   */
  public List<RemoveOutcome> removeMany(Collection<Long> probeIds) {
    synchronized (lock) {
      List<Long> ids = List.copyOf(probeIds);
      RemoveOutcome[] outcomes = new RemoveOutcome[ids.size()];
      Map<Long, ActiveProbe> active = new HashMap<>();
      transformer.all().forEach(p -> active.put(p.id, p));
      Set<Long> seen = new HashSet<>();
      Map<String, ClassBatch> batches = new LinkedHashMap<>();
      for (int i = 0; i < ids.size(); i++) {
        long id = ids.get(i);
        ActiveProbe p = active.get(id);
        if (p == null || !seen.add(id)) {
          String why = p == null ? "no active probe with id " + id : "probe " + id + " is listed more than once";
          outcomes[i] = RemoveOutcome.failed(id, new ProbeException(Reason.NO_SUCH_PROBE, why));
          continue;
        }
        batches.computeIfAbsent(p.method.className(), ClassBatch::new).add(i, p);
      }
      Map<String, List<Class<?>>> loaded = loadedClasses(batches.keySet());
      for (ClassBatch b : batches.values()) {
        b.classes = loaded.getOrDefault(b.className, List.of());
        b.probes.forEach(transformer::remove);
      }
      retransform(batches.values());
      batches.values().forEach(b -> retire(b, outcomes));
      return List.of(outcomes);
    }
  }

  /** Removes every probe {@code requester} asked for (all probes when null) in one batch; never throws. */
  public List<RemoveResult> removeAll(String requester) {
    synchronized (lock) {
      List<Long> ids = transformer.all().stream()
          .filter(p -> requester == null || requester.equals(p.requester)).map(p -> p.id).toList();
      return removeMany(ids).stream().filter(RemoveOutcome::ok).map(RemoveOutcome::result).toList();
    }
  }

  public List<LedgerEntry> ledger() {
    return transformer.all().stream().map(ActiveProbe::toLedgerEntry).toList();
  }

  /** Every active probe's reading (a loop, not a stream: asked every sampling interval, in the program's JVM). */
  public List<ProbeReading> read() {
    List<ProbeReading> out = new ArrayList<>();
    for (ActiveProbe p : transformer.all()) {
      out.add(Readings.read(p));
    }
    return out;
  }

  public ProbeCost cost() {
    // The round runs outside the lock: about 0.2 ms once compiled, more before, and an insert or removal
    // that came meanwhile would wait for it.
    Calibration refined = calibration.refined(slots);
    synchronized (lock) {
      long executions = retiredExecutions;
      double probeNanos = retiredProbeNanos;
      calibration = calibration.merged(refined);
      for (ActiveProbe p : transformer.all()) {
        executions += Readings.executions(p);
        probeNanos += price(p);
      }
      return new ProbeCost(executions, Math.round(probeNanos), retransformNanos);
    }
  }

  /**
   * What {@code p}'s executions so far cost: those since the last pricing at the calibration of now, the
   * earlier ones at theirs, so a calibration refined later never reprices the past.
   */
  private double price(ActiveProbe p) {
    long n = Readings.executions(p);
    p.pricedNanos += (n - p.pricedExecutions) * calibration.nanosPerExecution(p.kind);
    p.pricedExecutions = n;
    return p.pricedNanos;
  }

  /**
   * The class's bytes as the JVM would hand them to a transformer now, with every probe of every
   * agent applied (for checking that removal restored the original bytes exactly).
   */
  public byte[] currentClassBytes(String className) throws ProbeException {
    synchronized (lock) {
      Class<?> target = modifiable(className, loadedClasses(List.of(className))).get(0);
      ClassBytesCapture capture = new ClassBytesCapture(target);
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

  /** Every loaded class with one of {@code classNames}, by name, from one look at the loaded classes. */
  private Map<String, List<Class<?>>> loadedClasses(Collection<String> classNames) {
    Set<String> wanted = new HashSet<>(classNames);
    Map<String, List<Class<?>>> found = new HashMap<>();
    for (Class<?> c : instrumentation.getAllLoadedClasses()) {
      if (wanted.contains(c.getName())) {
        found.computeIfAbsent(c.getName(), k -> new ArrayList<>()).add(c);
      }
    }
    return found;
  }

  private List<Class<?>> modifiable(String className, Map<String, List<Class<?>>> loaded) throws ProbeException {
    List<Class<?>> classes = loaded.get(className);
    if (classes == null) {
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

  /** Accounts for a removal batch's class: its probes retired and their slots freed, or put back when it failed. */
  private void retire(ClassBatch b, RemoveOutcome[] outcomes) {
    if (b.failure != null) {
      b.probes.forEach(transformer::add);
      retransformQuietly(b.classes);
    }
    boolean restored = transformer.probes(b.internalName).isEmpty();
    for (int k = 0; k < b.probes.size(); k++) {
      ActiveProbe p = b.probes.get(k);
      if (b.failure != null) {
        outcomes[b.positions.get(k)] = RemoveOutcome.failed(p.id, new ProbeException(Reason.TRANSFORM_FAILED,
            "probe " + p.id + " could not be removed from " + b.className + "; it stays active", b.failure));
        continue;
      }
      retiredExecutions += Readings.executions(p);
      retiredProbeNanos += price(p);
      freeSlots(p);
      outcomes[b.positions.get(k)] = RemoveOutcome.removed(new RemoveResult(p.id, b.className, b.nanosPerProbe, restored));
    }
  }

  /**
   * Retransforms every batch's classes in one call, the transformer already holding what each class should
   * weave; when the VM refuses that call, class by class. Sets each batch's failure, or its time per probe.
   */
  private void retransform(Collection<ClassBatch> batches) {
    List<Class<?>> classes = new ArrayList<>();
    int probes = 0;
    for (ClassBatch b : batches) {
      classes.addAll(b.classes);
      probes += b.probes.size();
      transformer.clearFailure(b.internalName);
    }
    if (classes.isEmpty()) {
      return;
    }
    long nanos;
    try {
      nanos = retransformClasses(classes);
    } catch (ProbeException refused) {
      batches.forEach(this::retransformAlone);
      return;
    }
    for (ClassBatch b : batches) {
      Throwable failure = transformer.takeFailure(b.internalName);
      if (failure != null) {
        b.failure = new ProbeException(Reason.TRANSFORM_FAILED, "weaving " + b.className + " failed: " + failure, failure);
      }
      b.nanosPerProbe = nanos / probes;
    }
  }

  private void retransformAlone(ClassBatch b) {
    try {
      b.nanosPerProbe = retransform(b.classes, b.internalName) / b.probes.size();
    } catch (ProbeException e) {
      b.failure = e;
    }
  }

  /** Retransforms {@code classes}; on any failure the VM keeps what it had and this throws. */
  private long retransform(List<Class<?>> classes, String internalName) throws ProbeException {
    if (classes.isEmpty()) {
      return 0;
    }
    transformer.clearFailure(internalName);
    long nanos = retransformClasses(classes);
    Throwable failure = transformer.takeFailure(internalName);
    if (failure != null) {
      throw new ProbeException(Reason.TRANSFORM_FAILED, "weaving " + classes.get(0).getName() + " failed: " + failure, failure);
    }
    return nanos;
  }

  /** One call of the VM's {@code retransformClasses}, timed and counted; throws when the VM refuses it. */
  private long retransformClasses(List<Class<?>> classes) throws ProbeException {
    retransformations++;
    long start = System.nanoTime();
    try {
      instrumentation.retransformClasses(classes.toArray(new Class<?>[0]));
    } catch (Throwable t) {
      throw new ProbeException(Reason.TRANSFORM_FAILED, "the VM refused the retransformation of "
          + classes.get(0).getName() + ": " + t, t);
    } finally {
      retransformNanos += System.nanoTime() - start;
    }
    return System.nanoTime() - start;
  }

  /** How many times this manager has called the VM's {@code retransformClasses}. */
  long retransformations() {
    synchronized (lock) {
      return retransformations;
    }
  }

  private void retransformQuietly(List<Class<?>> classes) {
    if (classes.isEmpty()) {
      return;
    }
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
}
