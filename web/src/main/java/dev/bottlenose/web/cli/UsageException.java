package dev.bottlenose.web.cli;

/** Bad command-line input: exit code 2 and the message. */
final class UsageException extends RuntimeException {
  UsageException(String message) {
    super(message);
  }
}
