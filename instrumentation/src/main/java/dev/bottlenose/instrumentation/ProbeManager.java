package dev.bottlenose.instrumentation;

import java.lang.instrument.Instrumentation;
import java.util.List;

/**
 * Inserts and removes probes in the running JVM with {@code retransformClasses}. Probes in one method
 * compose; removing the last probe of a class restores the class's original bytes. Thread-safe.
 *
 * <p>SKELETON: to be written (see instrumentation/README.md).
 */
public final class ProbeManager {
  private final Instrumentation instrumentation;

  public ProbeManager(Instrumentation instrumentation) {
    this.instrumentation = instrumentation;
  }

  public InsertResult insert(ProbeRequest request) throws ProbeException {
    throw new ProbeException(ProbeException.Reason.TRANSFORM_FAILED, "not written yet " + instrumentation);
  }

  public RemoveResult remove(long probeId) throws ProbeException {
    throw new ProbeException(ProbeException.Reason.NO_SUCH_PROBE, "not written yet");
  }

  /** Removes every probe {@code requester} asked for (all probes when null); never throws. */
  public List<RemoveResult> removeAll(String requester) {
    return List.of();
  }

  public List<LedgerEntry> ledger() {
    return List.of();
  }

  public List<ProbeReading> read() {
    return List.of();
  }

  public ProbeCost cost() {
    return new ProbeCost(0, 0, 0);
  }

  /**
   * The class's bytes as the JVM would hand them to a transformer now, with every probe of every
   * agent applied (for checking that removal restored the original bytes exactly).
   */
  public byte[] currentClassBytes(String className) throws ProbeException {
    throw new ProbeException(ProbeException.Reason.NO_SUCH_CLASS, "not written yet " + className);
  }

  /** Throwables caught inside probes or transformers and swallowed so the application never saw them. */
  public long suppressedErrors() {
    return 0;
  }
}
