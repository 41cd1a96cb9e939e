package dev.bottlenose.agent.discovery;

/**
 * Whether discovery records every class definition ({@link DiscoverySettings#CLASS_DEFINE}) in the coming second.
 * Each class an event names is written into the recording once per chunk with its name, package, module and loader:
 * in a program defining 3,100 classes a second (a proxy per request), a recording with the event on grew 53 MB in
 * 30 s instead of 0.14 MB, its recorder thread took 1.2 s of CPU (about 13 µs a class), and the daemon reads and
 * parses all of it. Which code defines classes is what discovery needs, and a sample tells it as well: while the
 * program defines at most {@value #MAX_PER_SECOND} classes a second (by the JVM's own count, which costs nothing to
 * read), every definition is recorded; above that, one second in {@code ceil(rate / MAX_PER_SECOND)} (at most one in
 * {@value #MAX_CYCLE}). A search that counts class definitions turns the event on for its own sources meanwhile: the
 * recording's parts are merged.
 */
final class ClassDefineDuty {
  static final int MAX_PER_SECOND = 100;
  static final int MAX_CYCLE = 16;

  private long lastNanos = -1;
  private long lastLoaded;
  private int cycle = 1;
  /** Seconds still to leave out before the next one recorded. */
  private int skip;
  private boolean recorded = true;

  /**
   * Whether definitions are recorded until the next call, given the JVM's total of classes loaded so far at
   * {@code nowNanos}; called about once a second. The first call answers true (no rate is known yet).
   */
  boolean next(long nowNanos, long totalLoaded) {
    if (lastNanos >= 0 && nowNanos > lastNanos) {
      double perSecond = Math.max(0, totalLoaded - lastLoaded) * 1e9 / (nowNanos - lastNanos);
      cycle = (int) Math.min(MAX_CYCLE, Math.max(1, Math.ceil(perSecond / MAX_PER_SECOND)));
    }
    lastNanos = nowNanos;
    lastLoaded = totalLoaded;
    if (recorded) {
      skip = cycle - 1;  // a second was just recorded: the cycle's others are left out
    }
    skip = Math.min(skip, cycle - 1);  // a rate that fell waits no longer than its own cycle
    recorded = skip == 0;
    if (skip > 0) {
      skip--;
    }
    return recorded;
  }
}
