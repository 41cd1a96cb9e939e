package dev.bottlenose.cli;

/** How every Bottlenose command ends: 0 done, 1 a runtime failure, 2 a usage error (the command line is wrong). */
public final class ExitCodes {
  public static final int OK = 0;
  public static final int FAILED = 1;
  public static final int USAGE = 2;

  private ExitCodes() {}
}
