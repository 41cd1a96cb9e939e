package dev.bottlenose.daemon.session;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/** Reads the agent every interval, turns the totals into samples, keeps a bounded history and tells listeners. */
public final class Sampler {
  static final Duration MIN_INTERVAL = Duration.ofMillis(50);
  static final Duration MAX_INTERVAL = Duration.ofHours(1);

  private final Supplier<Totals> reader;
  private final Map<Long, ProbeInfo> probes;
  private final Map<Long, SourceInfo> sources;
  private final int historySize;
  private final UnaryOperator<Sample> enrich;
  private final ValueTracker tracker = new ValueTracker();
  private final Deque<Sample> history = new ArrayDeque<>();
  private final List<Consumer<Sample>> listeners = new CopyOnWriteArrayList<>();
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "bottlenose-sampler");
    t.setDaemon(true);
    return t;
  });
  private volatile Duration interval;
  private ScheduledFuture<?> tick;
  private String lastError = "";
  /** When the last sample was taken; read and written on the timer's thread. */
  private long lastSampleAtMillis;

  Sampler(Supplier<Totals> reader, Map<Long, ProbeInfo> probes, Map<Long, SourceInfo> sources,
      Duration interval, int historySize, UnaryOperator<Sample> enrich) {
    this.reader = reader;
    this.enrich = enrich;
    this.probes = probes;
    this.sources = sources;
    this.interval = checked(interval);
    this.historySize = historySize;
  }

  synchronized void start() {
    timer.execute(this::sampleOnce);
    schedule();
  }

  synchronized void stop() {
    timer.shutdownNow();
  }

  public Duration interval() {
    return interval;
  }

  /** Changes the interval from the next sample on; outside 50 ms .. 1 h is refused. */
  public synchronized void setInterval(Duration every) {
    interval = checked(every);
    if (tick != null && !timer.isShutdown()) {
      tick.cancel(false);
      schedule();
    }
  }

  /** The last {@code n} samples, oldest first. */
  public synchronized List<Sample> history(int n) {
    List<Sample> all = new ArrayList<>(history);
    return List.copyOf(all.subList(Math.max(0, all.size() - n), all.size()));
  }

  /** The newest sample, or null before the first interval ends. */
  public synchronized Sample latest() {
    return history.peekLast();
  }

  /** Adds a listener called with each new sample on the sampler thread. */
  public void onSample(Consumer<Sample> listener) {
    listeners.add(listener);
  }

  /**
   * The JFR events of a new flush have been counted: while a JFR-fed source is watched, the sample is taken now
   * rather than at the next tick, so its values leave with the flush that completes them (the tick came up to one
   * interval after the flush, half of one on average, and a search waited that much at each of its levels). The
   * tick is moved to one and a half intervals after this sample, so it fires only when flushes stop coming (JFR
   * flushes once a second, and the reader sees each a little later than the one before); a flush less than a
   * quarter of an interval after the last sample (a tick's, just before) is left to the next sample, which the
   * next flush then takes.
   */
  public void flushed() {
    if (sources.isEmpty() || timer.isShutdown()) {
      return;
    }
    try {
      timer.execute(() -> {
        synchronized (this) {
          if (tick != null) {
            tick.cancel(false);
          }
          schedule(interval.toMillis() * 3 / 2);
        }
        if (System.currentTimeMillis() - lastSampleAtMillis >= interval.toMillis() / 4) {
          sampleOnce();
        }
      });
    } catch (RejectedExecutionException e) {
      // stopping
    }
  }

  private void schedule() {
    schedule(interval.toMillis());
  }

  private void schedule(long firstMillis) {
    long millis = interval.toMillis();
    tick = timer.scheduleWithFixedDelay(this::sampleOnce, firstMillis, millis, TimeUnit.MILLISECONDS);
  }

  private void sampleOnce() {
    lastSampleAtMillis = System.currentTimeMillis();
    try {
      Totals read = reader.get();
      Sample read0 = read == null ? null : tracker.next(read, System.currentTimeMillis(), probes, sources);
      Sample sample = read0 == null ? null : enrich.apply(read0);
      if (sample != null) {
        remember(sample);
        listeners.forEach(l -> l.accept(sample));
      }
    } catch (RuntimeException e) {
      if (!timer.isShutdown()) {
        reportOnce(e);
      }
    }
  }

  private synchronized void remember(Sample sample) {
    if (history.size() == historySize) {
      history.removeFirst();
    }
    history.addLast(sample);
  }

  private void reportOnce(RuntimeException e) {
    String text = String.valueOf(e.getMessage());
    if (!text.equals(lastError)) {
      lastError = text;
      System.err.println("[bottlenose] sampling failed: " + text);
    }
  }

  static Duration checked(Duration every) {
    if (every.compareTo(MIN_INTERVAL) < 0 || every.compareTo(MAX_INTERVAL) > 0) {
      throw SessionException.badInput("interval " + every.toMillis() + " ms is outside 50 ms .. 1 h");
    }
    return every;
  }
}
