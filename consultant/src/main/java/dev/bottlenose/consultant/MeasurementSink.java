package dev.bottlenose.consultant;

/** Receives what a {@link MeasurementPort} measures. Times are milliseconds since the epoch. */
public interface MeasurementSink {

  /**
   * One value for the interval ending at {@code atMillis}: the metric's value (per second or a
   * fraction of time, as the metric defines it) and the cost of this measurement over that interval
   * as a fraction of the target's CPU.
   */
  void value(MeasurementHandle handle, long atMillis, double value, double observedCost);

  /**
   * One value for the interval from {@code fromMillis} to {@code toMillis} in the data's own time: a
   * measurement fed by late events (JFR delivers them about once a second) says which interval its events
   * cover, which may lag the sample that carried them and differ from the sampling interval.
   */
  default void value(MeasurementHandle handle, long fromMillis, long toMillis, double value, double observedCost) {
    value(handle, toMillis, value, observedCost);
  }

  /** The measurement cannot be made (or stopped working); the handle is dead. */
  void failed(MeasurementHandle handle, MeasurementFailure failure);

  /**
   * Cost not attributable to one measurement (the agent's own threads, deoptimisation and safepoints
   * caused by retransforming), as a fraction of the target's CPU over the interval ending at {@code
   * atMillis}.
   */
  void sideCost(long atMillis, double fraction);

  /**
   * The CPU of the target's JIT compiler threads and VM Thread above their rate while nothing was
   * measured, as a fraction of the target's CPU over the interval ending at {@code atMillis}: mostly the
   * JIT compiling again what retransformations threw away. A port that cannot tell does not call it.
   */
  default void recompiling(long atMillis, double fraction) {}

  /**
   * What being attached costs the target while nothing is measured (the agent's and JFR's threads at rest),
   * as a fraction of its CPU, as known at {@code atMillis}: paid whether or not a measurement runs, so it
   * comes off the budget before the measurements share it. A port that cannot tell does not call it.
   */
  default void attached(long atMillis, double fraction) {}

  /**
   * What the tool's own processes take from the target's machine as fractions of the target's CPU, as known at
   * {@code atMillis}: the daemon's process and the process running the search (NaN: unknown). Not in the target,
   * so not off the budget; shown beside it. A port that cannot tell does not call it.
   */
  default void toolProcesses(long atMillis, double daemon, double searcher) {}

  /**
   * One target's interval: its JIT spent {@code toolJitNanos} compiling on the tool's behalf (the tool's own code,
   * classes its probes changed, what the attach threw away: the compilations' durations) while the whole process used
   * {@code processCpuNanos} of CPU. Not in the budget; shown beside it, summed since the attach. A port that cannot
   * tell does not call it.
   */
  default void toolJit(long atMillis, long toolJitNanos, long processCpuNanos) {}
}
