package dev.bottlenose.web.cli;

import dev.bottlenose.bus.Cluster;
import dev.bottlenose.cli.ClassArchive;
import dev.bottlenose.consultant.rules.RuleBook;
import dev.bottlenose.daemon.attach.LocalJvms;
import java.io.PrintStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/**
 * The service jar's class-archive training: compiles the built-in rules, lists the local JVMs (the attach
 * mechanism a search that serves its targets itself uses), joins a cluster alone and leaves.
 */
@Command(name = ClassArchive.TRAINING_COMMAND, hidden = true, description = "make the class-data archive's training run")
final class ClassArchiveTraining extends dev.bottlenose.cli.ClassArchiveTraining {
  @ParentCommand
  Main main;

  @Override
  protected void rehearse() throws Exception {
    RuleBook.load(null);
    LocalJvms.list();
    Cluster.rehearse();
  }

  @Override
  protected PrintStream err() {
    return main.err;
  }
}
