package dev.bottlenose.daemon.cli;

import dev.bottlenose.daemon.session.SessionOptions;
import dev.bottlenose.daemon.session.TargetSession;
import java.time.Duration;
import java.util.Set;

/**
 * {@code demo}: starts the bundled workload, attaches, prints its hierarchies (trimmed), measures its
 * hot method live, removes the probe, prints the (empty) ledger and stops the workload.
 */
final class DemoCommand {
  static final Set<String> OPTIONS = Set.of("for", "interval");
  static final String HOT_METHOD = "/Code/" + DemoProcess.PACKAGE + "/DemoWorkload/isPrime(I)Z";
  private static final int SHOWN_CHILDREN = 6;

  private DemoCommand() {}

  static int run(Args a, Console console) throws Exception {
    a.atMostPositional(0);
    Duration length = a.duration("for", Duration.ofSeconds(8));
    SessionOptions options = Targets.options(a, "demo");
    try (DemoProcess demo = DemoProcess.start()) {
      console.out().println("== started the demo workload, pid " + demo.pid());
      try (TargetSession session = TargetSession.attach(demo.pid(), options, console.err())) {
        console.out().println("== attached: " + session.hello().mainClass() + " on Java "
            + session.hello().javaVersion() + " (" + session.hello().vmName() + ")");
        console.out().println("== resource hierarchies (first " + SHOWN_CHILDREN + " children of each node)");
        ResourcesCommand.print(session.resources("/", 2), console, SHOWN_CHILDREN);
        console.out().println("== /Code/" + DemoProcess.PACKAGE);
        ResourcesCommand.print(session.resources("/Code/" + DemoProcess.PACKAGE, 2), console, 0);
        console.out().println("== measuring call_count in " + HOT_METHOD + " for " + Durations.format(length));
        int measured = MeasureCommand.measure(session, HOT_METHOD, "call_count", null, length, console);
        console.out().println("== ledger after removal");
        LedgerCommand.print(session.ledger(), session.pid(), console);
        if (measured != 0) {
          return measured;
        }
      }
      console.out().println("== stopping the demo workload");
    }
    return 0;
  }
}
