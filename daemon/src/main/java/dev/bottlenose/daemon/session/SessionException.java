package dev.bottlenose.daemon.session;

/** A session request that failed; {@link #failure()} classifies it, the message says what and why. */
public class SessionException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Why a request failed, with the numeric code the event bus uses. */
  public enum Failure {
    BAD_INPUT(400),
    NOT_FOUND(404),
    REFUSED(409),
    /** Not now: a method of the class has been running for a while ({@code daemon.jfr.LongRunningFrames}). */
    BUSY(409),
    TARGET_EXITED(410),
    FAILED(500);

    private final int code;

    Failure(int code) {
      this.code = code;
    }

    public int code() {
      return code;
    }
  }

  private final Failure failure;

  public SessionException(Failure failure, String message) {
    super(message);
    this.failure = failure;
  }

  public SessionException(Failure failure, String message, Throwable cause) {
    super(message, cause);
    this.failure = failure;
  }

  public Failure failure() {
    return failure;
  }

  static SessionException badInput(String message) {
    return new SessionException(Failure.BAD_INPUT, message);
  }

  /** The failure class for an agent error code word (NO_SUCH_METHOD, NATIVE_METHOD, …). */
  static Failure fromAgentCode(String code) {
    switch (code) {
      case "NO_SUCH_CLASS":
      case "NO_SUCH_METHOD":
      case "NO_SUCH_RESOURCE":
      case "NO_SUCH_PROBE":
      case "NO_SUCH_SOURCE":
        return Failure.NOT_FOUND;
      case "AMBIGUOUS_METHOD":
      case "ABSTRACT_METHOD":
      case "NATIVE_METHOD":
      case "UNMODIFIABLE_CLASS":
      case "BAD_PATH":
      case "BAD_REQUEST":
        return Failure.BAD_INPUT;
      case "TOO_MANY_PROBES":
        return Failure.REFUSED;
      default:
        return Failure.FAILED;
    }
  }
}
