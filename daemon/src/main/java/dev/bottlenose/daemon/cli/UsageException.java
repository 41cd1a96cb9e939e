package dev.bottlenose.daemon.cli;

/** The command line is wrong; the CLI prints the message and the usage and exits with 2. */
final class UsageException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  UsageException(String message) {
    super(message);
  }
}
