package dev.bottlenose.metrics;

import java.util.List;
import java.util.Map;

/**
 * Predicts what a plan costs the target (metrics-dsl/README.md, "Cost model"). A probe execution costs
 * one call into the probe runtime (the calibrated virtual call) plus its counter adds and clock reads; a
 * watched event costs JFR's commit, with a stack trace when its source filters on code, plus the agent's filter
 * match; cpu samples cost a fixed amount per second, because the sampler runs whatever the program does
 * (execution and native-method samples alike: a native sample walks one thread's stack per period, an
 * execution sample up to five), and so do the agent's lock samples.
 */
final class CostModel {
  /**
   * One add to a counter cell: a plain add in the thread's own stripe (BENCHMARKS.md: a counter probe adds
   * about 1.2 ns to a call), rounded up for the threads that share a stripe and add atomically (6-8 ns).
   */
  static final double COUNTER_ADD_NANOS = 2;
  /** One System.nanoTime() read (BENCHMARKS.md: a clock pair is 47 to 52 ns on the build VM). */
  static final double CLOCK_READ_NANOS = 25;
  /**
   * One JFR event committed with its stack trace, plus matching the source's filter against it. Measured
   * (BENCHMARKS.md, tests/bench-event-cost.sh): 5.25 µs (4.7–6.2) of the process's CPU per event 60 frames deep,
   * JFR's recorder thread included; without the stack about 0.6 µs. Priced at 5 µs, lock-contention and I/O
   * sources at the whole program no longer fit a 1% budget on a server (every park is recorded to count the lock
   * parks among them), and the search lost two programs it located at 2 µs; until those are measured another way,
   * the model keeps 2 µs, which under-prices deep stacks.
   */
  static final double EVENT_NANOS = 2_000;
  /**
   * One JFR event committed without a stack trace (the recording takes none for its type: a source of the whole
   * program, while no one asks for the stacks): about 0.6 µs, measured as for {@link #EVENT_NANOS}.
   */
  static final double STACKLESS_EVENT_NANOS = 600;
  /** One execution sample of one running thread: JFR's stack walk. */
  static final double SAMPLE_NANOS = 20_000;
  /** Matching one sample against one more sampled source's filter. */
  static final double MATCH_NANOS = 500;
  /**
   * One period of the agent's lock samples: a look at every platform thread's state and at what each waiting one
   * parked on, the monitors of the blocked ones asked of the VM in one call (the agent's LockSamples), and the events
   * it commits. Measured by {@code tests/bench-lock-sample-cost.sh} (2-vCPU VM, JDK 17, a tenth of the threads
   * blocked on a monitor and a tenth parked on a lock, so an event each a period): 7.4 µs a period with 40 threads,
   * 29.5 µs with 200, 189 µs with 1,000, 150–190 ns a thread (about half of it asking for the blocked threads'
   * monitors). Priced at a program of about 250 threads. The daemon also observes the events themselves as stackless
   * events, as it does every sample's.
   */
  static final double LOCK_SAMPLE_NANOS = 40_000;

  /**
   * One class definition recorded ({@code jdk.ClassDefine}, for {@code class_define} and for {@code class_load} in a
   * part of the program), beyond the event's commit: JFR's recorder thread writing the class, its name, package,
   * module and loader into the recording, which most of the program's classes never are otherwise. A program defining a proxy class per request (3,100 a second, 2-vCPU VM, JDK 17): its recorder
   * thread took 1.24 s of CPU in 30 s with the event on and none without, about 13 µs a class.
   */
  static final double CLASS_DEFINE_NANOS = 13_000;

  /**
   * {@code cpuSamplePeriodNanos}: the period the plan's {@code cpu_sample} sources will sample at (a search asks for
   * its own, {@code SourceSpec.period}); the agent samples native methods ({@code io_sample}) and takes its lock
   * samples at its configured period, the calibration's. A 1% search samples every 100 ms where the agent is
   * configured at 20 ms, so pricing its cpu samples at 20 ms counted five times what they cost.
   */
  static ProbePlan.Cost predict(List<ProbePlan.Item> items, Calibration c, double cpuSamplePeriodNanos) {
    double perEvent = 0;
    int cpuSources = 0;
    int ioSources = 0;
    boolean lockSamples = false;
    for (ProbePlan.Item item : items) {
      if (item.type().equals("source")) {
        Map<?, ?> source = (Map<?, ?>) item.request().get("source");
        Event event = Event.byWord(String.valueOf(source.get("event")));
        boolean sample = event != null && event.sampled();
        lockSamples |= event == Event.LOCK_SAMPLE;
        cpuSources += event == Event.CPU_SAMPLE ? 1 : 0;
        ioSources += event == Event.IO_SAMPLE ? 1 : 0;
        perEvent += sample || recordsNothingOfItsOwn(event, source) ? 0
            : (event == Event.CLASS_DEFINE || event == Event.CLASS_LOAD ? CLASS_DEFINE_NANOS : 0)
                + (needsStack(event, source) ? EVENT_NANOS : STACKLESS_EVENT_NANOS);
      } else {
        perEvent += probeNanos(String.valueOf(item.request().get("kind")), c);
      }
    }
    double configuredPerSecond = 1e9 / c.samplePeriodNanos();
    double fixed = sampler(cpuSources, 1e9 / cpuSamplePeriodNanos) + sampler(ioSources, configuredPerSecond)
        + (lockSamples ? configuredPerSecond * LOCK_SAMPLE_NANOS : 0);
    return new ProbePlan.Cost(fixed, perEvent);
  }

  /** A sampler's walks at {@code perSecond}, and matching each sample against {@code sources} sources; 0 for none. */
  private static double sampler(int sources, double perSecond) {
    return sources == 0 ? 0 : perSecond * (SAMPLE_NANOS + MATCH_NANOS * sources);
  }

  /**
   * Whether the source's events must carry their stacks: it matches code or a frame's form on the stack (not the
   * compiled method itself, nor a defining loader). Without one of those filters the agent records its events
   * without stacks, as the daemon charges them ({@code ProbePlan.WATCHED_STACKLESS_EVENT_NANOS}): lock waiting at
   * the whole program and lock waiting in one method count the same parks, the second at three times the price, and a
   * method's node priced as its whole-program parent was seen to cost (the scheduler's share of an enclosing node's
   * cost) was expected at a third of what it cost.
   */
  static boolean needsStack(Event event, Map<?, ?> source) {
    boolean onStack = event != null && !event.matchesMethodItself() && event != Event.CLASS_DEFINE;
    return onStack && (source.containsKey("code") || source.containsKey("form"));
  }

  /**
   * Whether the source records no event of its own: class loading over the whole program (no filter) is the JVM's
   * own counter's growth (daemon/PROTOCOL.md, "class_load"). Where the counters cannot be read the agent records
   * the events after all, and what they cost is observed. (A {@code class_define} source records every class
   * definition: discovery records them only while the program defines few, agent.discovery.ClassDefineDuty.)
   */
  private static boolean recordsNothingOfItsOwn(Event event, Map<?, ?> source) {
    return event == Event.CLASS_LOAD && source.size() == 1;
  }

  /** One execution of a probe of this kind (a ProbeKind word). */
  static double probeNanos(String kind, Calibration c) {
    switch (kind) {
      case "call_count":
        return c.virtualCallNanos() + COUNTER_ADD_NANOS;
      case "allocation":
        return 2 * c.virtualCallNanos() + 2 * COUNTER_ADD_NANOS;
      default:
        return 2 * c.virtualCallNanos() + 2 * CLOCK_READ_NANOS + 2 * COUNTER_ADD_NANOS;
    }
  }

  private CostModel() {}
}
