package dev.bottlenose.instrumentation;

/** What became of one request of a batch insertion: the probe inserted, or why it was not (exactly one is set). */
public record InsertOutcome(InsertResult result, ProbeException failure) {
  static InsertOutcome inserted(InsertResult result) {
    return new InsertOutcome(result, null);
  }

  static InsertOutcome failed(ProbeException failure) {
    return new InsertOutcome(null, failure);
  }

  public boolean ok() {
    return failure == null;
  }
}
