package dev.bottlenose.daemon.jfr;

import dev.bottlenose.agent.discovery.DiscoverySettings;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The thresholds discovery's rate-bounded contention events ({@link DiscoverySettings#RATE_BOUNDED_EVENTS}: parks)
 * are recorded from, held so that discovery records at most {@value #MAX_PER_SECOND} of each type a second. Each
 * event is recorded with its stack, and the walk costs the parking thread about 5 µs on a deep stack ({@code
 * tests/bench-event-cost.sh}): {@value #MAX_PER_SECOND} a second is a quarter of a percent of one core. A server's
 * pools park far more often than that (an HTTP server and its client: 6,500 parks of 0.2 ms or more a second, nearly
 * all of them idle workers and callers waiting for a future, none on a lock), and the search's own sources, which
 * measure exactly, are what a budget pays for. So while more than {@value #MAX_PER_SECOND} of a type are recorded a
 * second, over a window of at least {@value #WINDOW_MILLIS} ms, its threshold doubles (four times when the rate is
 * over four times that), up to {@link DiscoverySettings#MAX_CONTENTION_THRESHOLD}; while fewer than an eighth of that
 * are, it halves, down to {@link DiscoverySettings#CONTENTION_THRESHOLD}. The longest waits, which carry most of the
 * time waited, are the ones kept, on locks as on anything else.
 *
 * <p>Counting only events at or above the current threshold makes each window's rate right whenever the agent
 * applies a change: events it recorded under an older, lower threshold are not counted.
 */
final class ContentionThresholds {
  static final int MAX_PER_SECOND = 500;
  static final long WINDOW_MILLIS = 2_000;
  private final Map<String, Long> nanos = new LinkedHashMap<>();
  private final Map<String, Long> counted = new LinkedHashMap<>();
  private long windowStartMillis = -1;

  ContentionThresholds() {
    for (String event : DiscoverySettings.RATE_BOUNDED_EVENTS) {
      nanos.put(event, DiscoverySettings.CONTENTION_THRESHOLD.toNanos());
      counted.put(event, 0L);
    }
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
      if (perSecond > MAX_PER_SECOND) {
        next = Math.min(DiscoverySettings.MAX_CONTENTION_THRESHOLD.toNanos(),
            now * (perSecond > 4 * MAX_PER_SECOND ? 4 : 2));
      } else if (perSecond < MAX_PER_SECOND / 8.0) {
        next = Math.max(DiscoverySettings.CONTENTION_THRESHOLD.toNanos(), now / 2);
      }
      changed |= next != now;
      e.setValue(next);
      counted.put(e.getKey(), 0L);
    }
    windowStartMillis = nowMillis;
    return changed;
  }

  /** Every rate-bounded event's threshold in nanoseconds, as the {@code jfr} digest carries them. */
  synchronized Map<String, Long> all() {
    return Map.copyOf(nanos);
  }
}
