package dev.bottlenose.cli;

/**
 * The command line is wrong in a way only the command can tell (options that go together, a file that is not
 * there): {@link Cli} prints the message and that command's usage and exits with {@link ExitCodes#USAGE}.
 */
public final class UsageException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public UsageException(String message) {
    super(message);
  }
}
