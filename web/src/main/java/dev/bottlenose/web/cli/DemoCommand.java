package dev.bottlenose.web.cli;

import dev.bottlenose.consultant.bus.SearchRunner;
import dev.bottlenose.web.render.Bottlenecks;
import dev.bottlenose.web.service.WebService;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * {@code demo}: the service with the web UI on 127.0.0.1, the bundled demo workload, a daemon for it and
 * a search on it; prints the URL, the progress and the bottlenecks found, then serves until Ctrl-C
 * ({@code --exit-when-done}: ends after the search). The search uses short intervals and a 20% budget
 * (see {@link #searchBody}) so the planted bottleneck ({@link dev.bottlenose.web.demo.PrimeCounter#isPrime}) is found within about a
 * minute on a busy machine.
 */
final class DemoCommand {
  static final Set<String> VALUED = Set.of("port", "data", "max-time");
  static final Set<String> FLAGS = Set.of("exit-when-done");

  private DemoCommand() {}

  static int run(Args a, PrintStream out, PrintStream err) throws Exception {
    WebService.Options options = new WebService.Options("127.0.0.1", a.port("port", ServeCommand.DEFAULT_PORT), null,
        Path.of(a.option("data", "data/searches")));
    long maxSeconds = a.duration("max-time", java.time.Duration.ofSeconds(90)).toSeconds();
    boolean exitWhenDone = a.has("exit-when-done");
    Member member = Member.join(err);
    WebService service = null;
    DemoWorkloadProcess demo = null;
    try {
      service = Member.await(WebService.start(member.vertx(), member.daemons(), options), 30, "starting the web server");
      out.println("bottlenose demo: the web UI is at " + ServeCommand.url(options, service.port()));
      demo = DemoWorkloadProcess.start();
      out.println("bottlenose demo: started the demo workload, pid " + demo.pid() + " (four threads counting primes; planted: "
          + DemoWorkloadProcess.HOT_METHOD + ")");
      String daemonId = member.daemonsFor(List.of(demo.pid()), err).get(0);
      SearchRunner runner = Member.await(service.startSearch(searchBody(daemonId, maxSeconds)), 60, "starting the search");
      out.println("bottlenose demo: search " + runner.search().id() + " started; watch it at "
          + ServeCommand.url(options, service.port()) + "  (progress below)");
      try (Progress progress = new Progress(member.vertx(), runner.search().id(), out)) {
        progress.follow(runner);
        Member.await(runner.saved(), maxSeconds + 120, "the search");
      }
      out.println();
      out.println("bottlenose demo: search " + runner.search().id() + " ended: " + runner.search().endReason());
      out.println("bottlenecks found:");
      out.print(Bottlenecks.text(Bottlenecks.of(runner.search().graph(), runner.search().hypotheses())));
      out.println("(saved in " + options.dataDirectory() + "; the graph: " + ServeCommand.url(options, service.port()) + ")");
      if (exitWhenDone) {
        return Main.OK;
      }
      out.println("bottlenose demo: serving until Ctrl-C");
      out.flush();
      DemoWorkloadProcess workload = demo;
      demo = null;
      Runtime.getRuntime().addShutdownHook(new Thread(workload::close, "bottlenose-demo-stop"));
      ServeCommand.awaitShutdown(service, member, err);
      return Main.OK;
    } finally {
      if (demo != null) {
        if (service != null) {
          ServeCommand.shutdown(service, member);
        } else {
          member.close();
        }
        demo.close();
      }
    }
  }

  /**
   * Shortened settings (0.5 s intervals, 4 s of evidence after 2 s of warm-up: JFR's samples arrive a second
   * or so late, so the first intervals of a new measurement read low), a 20% budget and room for many experiments.
   */
  static JsonObject searchBody(String daemonId, long maxSeconds) {
    return new JsonObject().put("daemons", new JsonArray().add(daemonId)).put("budget", 0.2).put("maxTimeSeconds", maxSeconds)
        .put("settings", new JsonObject().put("search.sampling_interval_seconds", "0.5").put("search.min_observation_seconds", "2")
            .put("search.sufficient_seconds", "4").put("search.max_active_experiments", "256"));
  }
}
