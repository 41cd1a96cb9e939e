package dev.bottlenose.consultant.bus;

/**
 * The failure codes daemons answer with (daemon/README.md, "Event-bus protocol"); the addresses are
 * {@link dev.bottlenose.bus.Addresses}: 400 bad input, 404 not found, 409 refused, 410 target exited,
 * 500 other, 503 starting.
 */
public final class DaemonProtocol {
  public static final int BAD_INPUT = 400;
  public static final int NOT_FOUND = 404;
  public static final int TARGET_EXITED = 410;

  private DaemonProtocol() {}
}
