package dev.bottlenose.agent;

/** A request the agent refuses: a wire {@code code} and a message naming what was wrong. */
final class RequestException extends Exception {
  private static final long serialVersionUID = 1L;
  private final String code;

  RequestException(String code, String message) {
    super(message);
    this.code = code;
  }

  String code() {
    return code;
  }
}
