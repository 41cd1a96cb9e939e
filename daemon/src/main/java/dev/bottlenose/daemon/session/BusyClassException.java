package dev.bottlenose.daemon.session;

/**
 * A probe refused because a method of its class has been running for a while
 * ({@code daemon.jfr.LongRunningFrames}): {@link SessionException.Failure#BUSY}, with the class and why.
 */
public final class BusyClassException extends SessionException {
  private static final long serialVersionUID = 1L;
  /** What changing such a class would do. */
  public static final String HARM = "changing its class now would leave that activation running interpreted until"
      + " it returns (HotSpot does not compile a replaced method again)";
  private final String className;
  private final String why;

  BusyClassException(String className, String why, String message) {
    super(Failure.BUSY, message);
    this.className = className;
    this.why = why;
  }

  /** The class's binary name, {@code com.acme.Batch$Step}. */
  public String className() {
    return className;
  }

  /** Which method has been running where, and for how long. */
  public String why() {
    return why;
  }
}
