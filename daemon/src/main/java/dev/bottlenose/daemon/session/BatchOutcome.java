package dev.bottlenose.daemon.session;

/** One item of a batch request on a session: what it produced, or why it failed (exactly one is set). */
public record BatchOutcome<T>(T value, SessionException failure) {
  static <T> BatchOutcome<T> done(T value) {
    return new BatchOutcome<>(value, null);
  }

  static <T> BatchOutcome<T> failed(SessionException failure) {
    return new BatchOutcome<>(null, failure);
  }

  public boolean ok() {
    return failure == null;
  }
}
