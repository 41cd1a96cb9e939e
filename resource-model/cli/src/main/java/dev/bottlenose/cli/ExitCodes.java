package dev.bottlenose.cli;

/**
 * How every Bottlenose command ends: 0 done, 1 a runtime failure, 2 a usage error (the command line is wrong), 3 a
 * search that found what {@code --fail-on} names (so that a CI job can gate on it).
 */
public final class ExitCodes {
  public static final int OK = 0;
  public static final int FAILED = 1;
  public static final int USAGE = 2;
  public static final int FOUND = 3;

  private ExitCodes() {}
}
