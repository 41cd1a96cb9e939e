package dev.bottlenose.tests.bench;

import dev.bottlenose.agent.discovery.DiscoverySettings;
import dev.bottlenose.agent.wire.SourceSpec;
import dev.bottlenose.daemon.jfr.CallGraphs;
import dev.bottlenose.daemon.jfr.DiscoveryEvents;
import dev.bottlenose.daemon.jfr.LongRunningFrames;
import dev.bottlenose.daemon.jfr.SourceCounter;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import jdk.jfr.Recording;
import jdk.jfr.consumer.EventStream;
import jdk.jfr.consumer.RecordedEvent;

/**
 * What reading the target's recording costs the tool, per event: JFR's parser, and the daemon's handlers on top of it
 * (discovery's, and those of the sources a search watches). A child JVM runs the real HTTP server program
 * ({@code diag.real.JettyOrdersApi}, a fixed amount of work) under a recording with discovery's settings and every
 * park recorded without its stack, as a search counting lock waiting at the whole program has it; the file is then
 * read here again and again, by the parser alone and by the daemon's {@code DiscoveryEvents} and a {@code
 * SourceCounter} watching lock waiting, contended monitor entries, execution samples and the allocation samples of
 * one package. Run it with {@code -XX:TieredStopAtLevel=1}, as the tool runs ({@code tests/bench-reader.sh} does).
 * Median and range of the CPU per event over the repetitions, the first two left out as warm-up.
 *
 * <p>Usage: {@code tests/bench-reader.sh [--reps 7] [--rounds 6000]}.
 */
public final class ReaderCostBenchmark {
  private static final Pattern DONE = Pattern.compile("^done ");
  private static final int WARM_UP = 2;

  private ReaderCostBenchmark() {}

  public static void main(String[] args) throws Exception {
    if (args.length == 2 && args[0].equals("--child")) {
      child(Path.of(args[1]));
      return;
    }
    int reps = 7;
    long rounds = 6000;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--reps" -> reps = Integer.parseInt(args[i + 1]);
        case "--rounds" -> rounds = Long.parseLong(args[i + 1]);
        default -> throw new IllegalArgumentException("usage: ReaderCostBenchmark [--reps N] [--rounds N]");
      }
    }
    Path file = Files.createTempFile("reader-cost-", ".jfr");
    try {
      ChildJvm.run("the recorded program", List.of("-Ddiag.rounds=" + rounds, "-Ddiag.seconds=600"),
          ReaderCostBenchmark.class, DONE, "--child", file.toString());
      Set<String> names = new TreeSet<>(discovery().eventNames());
      names.addAll(SourceCounter.eventNames());
      List<Double> parse = new ArrayList<>();
      List<Double> handled = new ArrayList<>();
      long events = 0;
      for (int rep = 1; rep <= reps + WARM_UP; rep++) {
        long[] n = new long[1];
        double parseNanos = read(file, names, e -> n[0]++, () -> { });
        DiscoveryEvents discovery = discovery();
        SourceCounter sources = new SourceCounter(DiscoverySettings.CALL_GRAPH_PERIOD.toNanos(), tid -> -1);
        sources.add(1, SourceSpec.fromMap(Map.of("event", "lock_park")), 0);
        sources.add(2, SourceSpec.fromMap(Map.of("event", "monitor_enter")), 0);
        sources.add(3, SourceSpec.fromMap(Map.of("event", "cpu_sample")), 0);
        sources.add(4, SourceSpec.fromMap(Map.of("event", "alloc_sample", "code", "inclusive:/Code/java.lang")), 0);
        double handledNanos = read(file, names, e -> {
          discovery.accept(e);
          sources.accept(e);
        }, () -> {
          discovery.flushedStream();
          sources.flushedStream();
        });
        events = n[0];
        System.out.printf(Locale.ROOT, "rep %d: %d events, parser %.2f µs, with the handlers %.2f µs per event%s%n", rep,
            events, parseNanos / events / 1000, handledNanos / events / 1000, rep <= WARM_UP ? " (warm-up)" : "");
        if (rep > WARM_UP) {
          parse.add(parseNanos / events / 1000);
          handled.add(handledNanos / events / 1000);
        }
      }
      Stats p = Stats.of(parse);
      Stats h = Stats.of(handled);
      System.out.printf(Locale.ROOT, "%d events; CPU per event: parser %.2f µs (%.2f–%.2f), parser and handlers %.2f µs"
          + " (%.2f–%.2f); %d repetitions%n", events, p.median(), p.min(), p.max(), h.median(), h.min(), h.max(), reps);
    } finally {
      Files.deleteIfExists(file);
    }
  }

  /** Discovery's handlers as a daemon has them, without threads' CPU times (a recording's threads are gone). */
  private static DiscoveryEvents discovery() {
    return new DiscoveryEvents(new CallGraphs(), new LongRunningFrames(tid -> -1), tid -> -1, e -> false);
  }

  /** The reading thread's CPU nanoseconds to stream the events {@code names} of {@code file} through {@code handler}. */
  private static double read(Path file, Set<String> names, Consumer<RecordedEvent> handler, Runnable flushed)
      throws Exception {
    long before = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    try (EventStream s = EventStream.openFile(file)) {
      s.setReuse(true);
      s.setOrdered(false);
      names.forEach(name -> s.onEvent(name, handler));
      s.onFlush(flushed);
      s.start();
    }
    return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - before;
  }

  /** Records the program's run to {@code file}: discovery's settings, every park without its stack. */
  private static void child(Path file) throws Exception {
    Map<String, String> settings = new LinkedHashMap<>(DiscoverySettings.settings());
    settings.put("jdk.ThreadPark#threshold", "0 ns");
    settings.put("jdk.ThreadPark#stackTrace", "false");
    Recording recording = new Recording(settings);
    recording.setDestination(file);
    recording.setDumpOnExit(true);
    recording.start();
    diag.real.JettyOrdersApi.main(new String[0]);
  }
}
