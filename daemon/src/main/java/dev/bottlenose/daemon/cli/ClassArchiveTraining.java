package dev.bottlenose.daemon.cli;

import dev.bottlenose.bus.Cluster;
import dev.bottlenose.cli.ClassArchive;
import dev.bottlenose.daemon.attach.LocalJvms;
import java.io.PrintStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/** The daemon jar's class-archive training: lists the local JVMs, joins a cluster alone and leaves. */
@Command(name = ClassArchive.TRAINING_COMMAND, hidden = true, description = "make the class-data archive's training run")
final class ClassArchiveTraining extends dev.bottlenose.cli.ClassArchiveTraining {
  @ParentCommand
  Main main;

  @Override
  protected void rehearse() throws Exception {
    LocalJvms.list();
    Cluster.rehearse();
  }

  @Override
  protected PrintStream err() {
    return main.console.err();
  }
}
