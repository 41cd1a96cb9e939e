package dev.bottlenose.web.cli;

import dev.bottlenose.bus.Cluster;
import dev.bottlenose.cli.ClassArchive;
import dev.bottlenose.cli.ExitCodes;
import dev.bottlenose.consultant.rules.RuleBook;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/**
 * Run once by the build under {@code -XX:ArchiveClassesAtExit} ({@link ClassArchive}): does what a search
 * command does before it searches (compiles the built-in rules, joins a cluster, alone, and leaves), so those
 * classes go into the jar's archive. Not for users; a failure only makes the archive smaller, so it is reported
 * and ends 0.
 */
@Command(name = ClassArchive.TRAINING_COMMAND, hidden = true, description = "make the class-data archive's training run")
final class ClassArchiveTraining implements Callable<Integer> {
  @ParentCommand
  Main main;

  @Override
  public Integer call() {
    try {
      RuleBook.load(null);
      Cluster.rehearse();
    } catch (Exception e) {
      main.err.println("bottlenose: the class-archive training stopped early: " + e);
    }
    return ExitCodes.OK;
  }
}
