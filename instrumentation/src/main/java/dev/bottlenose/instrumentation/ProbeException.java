package dev.bottlenose.instrumentation;

/** A probe request that cannot be honoured; {@link #reason()} says why in one word, the message in full. */
public final class ProbeException extends Exception {
  private static final long serialVersionUID = 1L;

  /** Why a request was refused. */
  public enum Reason {
    NO_SUCH_CLASS,
    NO_SUCH_METHOD,
    AMBIGUOUS_METHOD,
    ABSTRACT_METHOD,
    NATIVE_METHOD,
    UNMODIFIABLE_CLASS,
    NO_SUCH_PROBE,
    TOO_MANY_PROBES,
    TRANSFORM_FAILED
  }

  private final Reason reason;

  public ProbeException(Reason reason, String message) {
    super(message);
    this.reason = reason;
  }

  public ProbeException(Reason reason, String message, Throwable cause) {
    super(message, cause);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }
}
