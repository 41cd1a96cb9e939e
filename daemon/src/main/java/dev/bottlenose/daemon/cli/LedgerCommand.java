package dev.bottlenose.daemon.cli;

import dev.bottlenose.agent.wire.ProbeEntry;
import dev.bottlenose.daemon.session.TargetSession;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParentCommand;

/** {@code ledger --pid N}: every probe woven into the target, since when and who asked. */
@Command(name = "ledger", description = "probes woven into the target")
final class LedgerCommand implements Callable<Integer> {
  @ParentCommand
  Main main;

  @Mixin
  TargetOptions target;

  @Mixin
  JsonOption output;

  @Override
  public Integer call() {
    try (TargetSession session = target.attach(main.console, "cli")) {
      if (output.json) {
        JsonOption.print(main.console, JsonOption.object("pid", session.pid(),
            "probes", session.agentLedger().entries().stream().map(ProbeEntry::toMap).toList()));
      } else {
        print(session.agentLedger().entries(), session.pid(), main.console);
      }
    }
    return 0;
  }

  static void print(List<ProbeEntry> entries, long pid, Console console) {
    if (entries.isEmpty()) {
      console.out().println("ledger of process " + pid + ": no probes are woven in");
      return;
    }
    console.out().println("ledger of process " + pid + ": " + entries.size() + " probe(s)");
    for (ProbeEntry e : entries) {
      String callee = e.callee() == null ? "" : " -> " + e.callee().toPath();
      console.out().println("  probe " + e.probeId() + "  " + e.kind().word() + "  " + e.method().toPath() + callee
          + "  since " + Instant.ofEpochMilli(e.sinceMillis()) + "  by " + e.requester());
    }
  }
}
