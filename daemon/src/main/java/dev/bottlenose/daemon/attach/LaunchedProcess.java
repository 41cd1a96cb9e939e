package dev.bottlenose.daemon.attach;

/** A target JVM this daemon started with the agent on its command line. */
public final class LaunchedProcess {
  private final Process process;
  private final OutputPump stderr;

  LaunchedProcess(Process process, OutputPump stderr) {
    this.process = process;
    this.stderr = stderr;
  }

  public Process process() {
    return process;
  }

  public long pid() {
    return process.pid();
  }

  /**
   * The last lines the target wrote to stderr, for error messages. If the target has exited, waits
   * (briefly) until everything it wrote has been read.
   */
  public String stderrTail() {
    return process.isAlive() ? stderr.tail() : stderr.tailAtEnd(2_000);
  }
}
