package dev.bottlenose.web.cli;

import dev.bottlenose.consultant.Findings;
import dev.bottlenose.consultant.bus.SearchRunner;
import dev.bottlenose.web.service.ServiceMetrics;
import dev.bottlenose.web.service.WebService;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import dev.bottlenose.cli.ExitCodes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code demo}: the service with the web UI on 127.0.0.1, the bundled workload ({@link
 * dev.bottlenose.web.demo.PrimeCounter}, planted: {@code isPrime}), a daemon for it and a search on it
 * ({@link #settings}); prints the URL, the progress and the bottlenecks found, then serves until Ctrl-C
 * ({@code --exit-when-done}: ends after the search). Ctrl-C at any point stops the search (saved), the
 * daemon and the workload.
 */
@Command(name = "demo", description = "serve the web UI, run the bundled workload, search it, print what it"
    + " found; then serve until Ctrl-C")
final class DemoCommand implements Callable<Integer> {
  @ParentCommand
  Main main;

  @Option(names = "--port", paramLabel = "PORT", description = "the web UI's port (default: " + ServeCommand.DEFAULT_PORT
      + "; 0: any free one)")
  int port = ServeCommand.DEFAULT_PORT;

  @Option(names = "--exit-when-done", description = "end after the search instead of serving on")
  boolean exitWhenDone;

  @Option(names = "--max-time", paramLabel = "DURATION", description = "the longest the search runs (default: 90s)")
  Duration maxTime = Duration.ofSeconds(90);

  @Mixin
  DataOption data;

  @Mixin
  SettingOptions settings;

  @Override
  public Integer call() throws Exception {
    PrintStream out = main.out;
    PrintStream err = main.err;
    WebService.Options options = new WebService.Options("127.0.0.1", ServeCommand.port(port), null, data.directory());
    long maxSeconds = SearchCommand.maxTime(maxTime).toSeconds();
    JsonObject settings = settings(this.settings.settings());
    ServiceMetrics metrics = new ServiceMetrics();
    Member member = Member.joinAsService(err, metrics.vertxMetrics());
    Parts parts = new Parts(member);
    Thread hook = new Thread(parts::close, "bottlenose-demo-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      WebService service = Member.await(WebService.start(member.vertx(), member.daemons(), options, metrics), 30,
          "starting the web server");
      parts.service = service;
      String url = ServeCommand.url(options, service.port());
      out.println("bottlenose demo: the web UI is at " + url);
      DemoWorkloadProcess demo = DemoWorkloadProcess.start();
      parts.demo = demo;
      out.println("bottlenose demo: started the demo workload, pid " + demo.pid() + " (four threads counting primes; planted: "
          + DemoWorkloadProcess.HOT_METHOD + ")");
      String daemonId = member.daemonsFor(List.of(demo.pid()), err).get(0);
      SearchRunner runner = Member.await(service.startSearch(searchBody(daemonId, maxSeconds, settings)), 60, "starting the search");
      String searchUrl = url + "#/search/" + runner.search().id();
      out.println("bottlenose demo: search " + runner.search().id() + " started; watch it at " + searchUrl + "  (progress below)");
      try (Progress progress = new Progress(member.vertx(), runner.search().id(), runner.search().hypotheses(), out)) {
        progress.follow(runner);
        Member.await(runner.saved(), maxSeconds + 120, "the search");
      }
      out.println();
      out.println("bottlenose demo: search " + runner.search().id() + " ended: " + runner.search().endReason());
      out.println("findings, by impact:");
      out.print(Findings.text(runner.search().findings()));
      out.println("(saved in " + options.dataDirectory() + "; the graph: " + searchUrl + ")");
      if (exitWhenDone) {
        return ExitCodes.OK;
      }
      out.println("bottlenose demo: serving until Ctrl-C");
      out.flush();
      new CountDownLatch(1).await();
      return ExitCodes.OK;
    } finally {
      parts.close();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // shutting down: the hook runs, and finds everything closed
      }
    }
  }

  /** What the demo started, stopped once (on the way out or on Ctrl-C): searches saved, daemons, the workload. */
  private static final class Parts {
    private final Member member;
    private final AtomicBoolean closed = new AtomicBoolean();
    volatile WebService service;
    volatile DemoWorkloadProcess demo;

    Parts(Member member) {
      this.member = member;
    }

    void close() {
      if (!closed.compareAndSet(false, true)) {
        return;
      }
      if (service != null) {
        ServeCommand.shutdown(service, member);
      } else {
        member.close();
      }
      if (demo != null) {
        demo.close();
      }
    }
  }

  /**
   * The demo's search: 2 s of warm-up per measurement (JFR's samples arrive a second or so late, so the first
   * intervals of a new measurement read low), the default 6 s of evidence, a 20% budget and room for many
   * experiments, so every package is tested at once; then the {@code --set key=value} overrides.
   */
  static JsonObject searchBody(String daemonId, long maxSeconds, JsonObject settings) {
    return new JsonObject().put("daemons", new JsonArray().add(daemonId)).put("budget", 0.2).put("maxTimeSeconds", maxSeconds)
        .put("settings", settings);
  }

  static JsonObject settings(Map<String, String> overrides) {
    JsonObject settings = new JsonObject().put("search.min_observation_seconds", "2").put("search.max_active_experiments", "256");
    overrides.forEach(settings::put);
    return settings;
  }

}
