package dev.bottlenose.daemon.jfr;

import dev.bottlenose.agent.discovery.DiscoverySettings;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The thresholds discovery's rate-bounded contention events ({@link DiscoverySettings#RATE_BOUNDED_EVENTS}: parks)
 * are recorded from, held so that discovery records at most {@value #MAX_PER_SECOND} of each type a second. Each
 * event is recorded with its stack: the walk costs the parking thread about 5 µs on a deep stack ({@code
 * tests/bench-event-cost.sh}), and reading it costs the daemon about 40 µs more (its reading thread took 3.0 s of CPU
 * in a 1% search of the Jetty server at 500 parks a second, 1.4 s in another at 64: an estimated 41,000 events fewer), so
 * {@value #MAX_PER_SECOND} a second is about 0.3% of one core, the tool's share included. A server's
 * pools park far more often than that (an HTTP server and its client: 6,500 parks of 0.2 ms or more a second, nearly
 * all of them idle workers and callers waiting for a future, none on a lock), and the search's own sources, which
 * measure exactly, are what a budget pays for. So while more than {@value #MAX_PER_SECOND} of a type are recorded a
 * second, over a window of at least {@value #WINDOW_MILLIS} ms, its threshold goes up at once to the lowest of
 * {@link DiscoverySettings#CONTENTION_THRESHOLD} times a power of two (up to
 * {@link DiscoverySettings#MAX_CONTENTION_THRESHOLD}) that the window's events would have kept under that rate, by
 * their durations (doubling at each window took a server's pools 8 to 10 s, 1,600 parks a second with their stacks
 * recorded meanwhile); while fewer than an eighth of that are, it halves, down to
 * {@link DiscoverySettings#CONTENTION_THRESHOLD}: what was not recorded cannot say how far. The longest waits, which
 * carry most of the time waited, are the ones kept, on locks as on anything else.
 *
 * <p>Counting only events at or above the current threshold makes each window's rate right whenever the agent
 * applies a change: events it recorded under an older, lower threshold are not counted.
 */
final class ContentionThresholds {
  static final int MAX_PER_SECOND = 64;
  static final long WINDOW_MILLIS = 2_000;
  /** The thresholds a bounded event may have: the lowest times 1, 2, 4, … up to the highest. */
  static final int STEPS = 1 + Long.numberOfTrailingZeros(
      DiscoverySettings.MAX_CONTENTION_THRESHOLD.toNanos() / DiscoverySettings.CONTENTION_THRESHOLD.toNanos());
  private final Map<String, Long> nanos = new LinkedHashMap<>();
  private final Map<String, Long> counted = new LinkedHashMap<>();
  /** Per event, the window's counted events by duration: step k from the lowest threshold times 2^k to twice that. */
  private final Map<String, long[]> byStep = new LinkedHashMap<>();
  private long windowStartMillis = -1;

  ContentionThresholds() {
    for (String event : DiscoverySettings.RATE_BOUNDED_EVENTS) {
      nanos.put(event, DiscoverySettings.CONTENTION_THRESHOLD.toNanos());
      counted.put(event, 0L);
      byStep.put(event, new long[STEPS]);
    }
  }

  /** The step a wait of {@code durationNanos} falls in: the highest threshold it reaches. */
  private static int step(long durationNanos) {
    long lowest = DiscoverySettings.CONTENTION_THRESHOLD.toNanos();
    int k = 0;
    while (k < STEPS - 1 && durationNanos >= lowest << (k + 1)) {
      k++;
    }
    return k;
  }

  /** The current threshold of {@code event} in nanoseconds; 0 for an event that is not rate-bounded. */
  synchronized long of(String event) {
    return nanos.getOrDefault(event, 0L);
  }

  /** Whether an event of type {@code event} lasting {@code durationNanos} is one discovery records now (counted). */
  synchronized boolean recorded(String event, long durationNanos) {
    Long threshold = nanos.get(event);
    if (threshold == null || durationNanos < threshold) {
      return false;
    }
    counted.merge(event, 1L, Long::sum);
    byStep.get(event)[step(durationNanos)]++;
    return true;
  }

  /**
   * Ends the window if it has lasted {@value #WINDOW_MILLIS} ms by {@code nowMillis} and sets each threshold by its
   * rate; true when one changed.
   */
  synchronized boolean adjust(long nowMillis) {
    if (windowStartMillis < 0) {
      windowStartMillis = nowMillis;
      return false;
    }
    long span = nowMillis - windowStartMillis;
    if (span < WINDOW_MILLIS) {
      return false;
    }
    boolean changed = false;
    for (Map.Entry<String, Long> e : nanos.entrySet()) {
      double perSecond = counted.get(e.getKey()) * 1000.0 / span;
      long now = e.getValue();
      long next = now;
      long[] steps = byStep.get(e.getKey());
      if (perSecond > MAX_PER_SECOND) {
        next = raisedTo(steps, now, span);
      } else if (perSecond < MAX_PER_SECOND / 8.0) {
        next = Math.max(DiscoverySettings.CONTENTION_THRESHOLD.toNanos(), now / 2);
      }
      changed |= next != now;
      e.setValue(next);
      counted.put(e.getKey(), 0L);
      java.util.Arrays.fill(steps, 0);
    }
    windowStartMillis = nowMillis;
    return changed;
  }

  /**
   * The lowest threshold above {@code now} at which the window's events ({@code steps}, over {@code spanMillis}) come
   * to at most {@value #MAX_PER_SECOND} a second; the highest when none does.
   */
  private static long raisedTo(long[] steps, long now, long spanMillis) {
    long raised = DiscoverySettings.MAX_CONTENTION_THRESHOLD.toNanos();
    long atOrAbove = 0;
    for (int k = STEPS - 1; k > step(now); k--) {
      atOrAbove += steps[k];
      if (atOrAbove * 1000.0 / spanMillis > MAX_PER_SECOND) {
        break;
      }
      raised = DiscoverySettings.CONTENTION_THRESHOLD.toNanos() << k;
    }
    return raised;
  }

  /** Every rate-bounded event's threshold in nanoseconds, as the {@code jfr} digest carries them. */
  synchronized Map<String, Long> all() {
    return Map.copyOf(nanos);
  }
}
