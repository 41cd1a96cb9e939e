package dev.bottlenose.daemon.cli;

import dev.bottlenose.agent.wire.Fields;
import dev.bottlenose.daemon.session.TargetSession;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** {@code ledger --pid N}: every probe woven into the target, since when and who asked. */
final class LedgerCommand {
  private LedgerCommand() {}

  static int run(Args a, Console console) {
    a.atMostPositional(0);
    try (TargetSession session = Targets.attach(a, console, "cli")) {
      print(session.ledger(), session.pid(), console);
    }
    return 0;
  }

  static void print(List<Map<String, Object>> entries, long pid, Console console) {
    if (entries.isEmpty()) {
      console.out().println("ledger of process " + pid + ": no probes are woven in");
      return;
    }
    console.out().println("ledger of process " + pid + ": " + entries.size() + " probe(s)");
    for (Map<String, Object> e : entries) {
      String callee = e.get("callee") == null ? "" : " -> " + e.get("callee");
      console.out().println("  probe " + Fields.textOr(e, "probeId") + "  " + Fields.textOr(e, "kind") + "  "
          + Fields.textOr(e, "method") + callee + "  since " + Instant.ofEpochMilli(Fields.numberOr(e, "sinceMillis", 0))
          + "  by " + Fields.textOr(e, "requester"));
    }
  }
}
