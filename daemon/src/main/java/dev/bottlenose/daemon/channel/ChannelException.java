package dev.bottlenose.daemon.channel;

/** The channel could not be opened, or is closed: the agent never connected, or the target went away. */
public final class ChannelException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ChannelException(String message) {
    super(message);
  }

  public ChannelException(String message, Throwable cause) {
    super(message, cause);
  }
}
