package dev.bottlenose.daemon.channel;

/** The agent answered a request with {@code ok:false}: a code word such as NO_SUCH_METHOD and a message. */
public final class AgentException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final String code;

  public AgentException(String code, String message) {
    super(message);
    this.code = code;
  }

  public String code() {
    return code;
  }
}
