package dev.bottlenose.cli;

import java.io.PrintStream;
import java.util.concurrent.Callable;

/**
 * The hidden command a jar runs once at build time under {@code -XX:ArchiveClassesAtExit} ({@link ClassArchive}):
 * it does what the jar's commands do before they work, so those classes go into the archive. Each jar names it
 * {@link ClassArchive#TRAINING_COMMAND} and says what to rehearse. Not for users; a failure only makes the
 * archive smaller, so it is reported and ends 0.
 */
public abstract class ClassArchiveTraining implements Callable<Integer> {
  /** What the jar's commands do before they work (join a cluster, compile rules, …). */
  protected abstract void rehearse() throws Exception;

  /** Where a failure is reported. */
  protected abstract PrintStream err();

  @Override
  public final Integer call() {
    try {
      rehearse();
    } catch (Exception e) {
      err().println("bottlenose: the class-archive training stopped early: " + e);
    }
    return ExitCodes.OK;
  }
}
