package dev.bottlenose.instrumentation;

/** What became of one probe id of a batch removal: the probe removed, or why it was not (exactly one is set). */
public record RemoveOutcome(long probeId, RemoveResult result, ProbeException failure) {
  static RemoveOutcome removed(RemoveResult result) {
    return new RemoveOutcome(result.probeId(), result, null);
  }

  static RemoveOutcome failed(long probeId, ProbeException failure) {
    return new RemoveOutcome(probeId, null, failure);
  }

  public boolean ok() {
    return failure == null;
  }
}
