package dev.bottlenose.daemon.attach;

/** The agent could not be brought into the target; the message says why and what to do. */
public final class AttachException extends Exception {
  private static final long serialVersionUID = 1L;

  public AttachException(String message) {
    super(message);
  }

  public AttachException(String message, Throwable cause) {
    super(message, cause);
  }
}
