package dev.bottlenose.consultant.bus;

import dev.bottlenose.metrics.Calibration;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

/** What the port knows about one daemon: its target's pid and calibration, how busy the target is, whether it is gone. */
final class TargetDaemon {
  final String id;
  private volatile Calibration calibration;
  private volatile long pid = -1;
  private volatile double cores = Double.NaN;
  private volatile double idleNanosPerSecond = Double.NaN;
  private volatile double idleSideNanosPerSecond = Double.NaN;
  private volatile String gone;
  private boolean statusAsked;
  /** How long the JIT took per method, refreshed in the background; null before the first answer. */
  private volatile CompileTimes compileTimes;
  private long compileTimesAtMillis = Long.MIN_VALUE / 2;
  private boolean compileTimesAsked;
  static final long COMPILE_TIMES_MAX_AGE_MILLIS = 5_000;

  TargetDaemon(String id) {
    this.id = id;
  }

  /** Asks the daemon's status once (again after a failure); answers whether pid and calibration are known. */
  synchronized boolean ready(Vertx vertx) {
    if (calibration != null) {
      return true;
    }
    if (!statusAsked) {
      statusAsked = true;
      vertx.eventBus().<JsonObject>request(DaemonProtocol.status(id), new JsonObject()).onComplete(ar -> {
        synchronized (this) {
          statusAsked = false;
          if (ar.succeeded()) {
            JsonObject s = ar.result().body();
            pid = s.getLong("pid", -1L);
            calibration = Calibration.fromJson(s.getJsonObject("calibration").getMap());
          }
        }
      });
    }
    return false;
  }

  Calibration calibration() {
    return calibration;
  }

  /**
   * The daemon's latest JIT compile times ({@link CompileTimes}), asked again in the background when older
   * than {@value #COMPILE_TIMES_MAX_AGE_MILLIS} ms; null until the first answer (none if the daemon cannot tell).
   */
  synchronized CompileTimes compileTimes(Vertx vertx) {
    long now = System.currentTimeMillis();
    if (!compileTimesAsked && now - compileTimesAtMillis > COMPILE_TIMES_MAX_AGE_MILLIS) {
      compileTimesAsked = true;
      JsonObject body = new JsonObject().put("path", CompileTimes.JIT.toString()).put("depth", 2);
      vertx.eventBus().<JsonObject>request(DaemonProtocol.resources(id), body).onComplete(ar -> {
        synchronized (this) {
          compileTimesAsked = false;
          compileTimesAtMillis = System.currentTimeMillis();
          compileTimes = ar.succeeded() ? CompileTimes.of(ar.result().body())
              : compileTimes == null ? CompileTimes.NONE : compileTimes;
        }
      });
    }
    return compileTimes;
  }

  long pid() {
    return pid;
  }

  /** The target's CPU use in cores over the last sample, NaN before the first. */
  double cores() {
    return cores;
  }

  /** The agent's cost while none of the search's metrics runs, ns per second; NaN before the first idle sample. */
  double idleNanosPerSecond() {
    return idleNanosPerSecond;
  }

  /**
   * One sample's measuring cost above the idle baseline, as fractions of the target's CPU: the probes'
   * executions ({@code probes}) and the agent's own threads ({@code agent}, which also run the
   * retransformations that insert and remove probes), and the JIT compiler threads and VM Thread above
   * their idle rate ({@code recompiling}, 0 when the daemon does not report them). NaN when the sample
   * does not tell.
   */
  record Spent(double probes, double agent, double recompiling) {
    static final Spent UNKNOWN = new Spent(Double.NaN, Double.NaN, Double.NaN);
    static final Spent NONE = new Spent(0, 0, 0);

    double total() {
      return probes + agent;
    }
  }

  /**
   * Takes in one sample's {@code cost}; answers what measuring cost above the idle baseline (the agent's
   * cost while none of the search's metrics ran) as fractions of the target's CPU (at least {@code minCores}).
   */
  Spent sampled(JsonObject sample, boolean idle, double minCores) {
    JsonObject cost = sample.getJsonObject("cost");
    Long interval = sample.getLong("intervalNanos");
    if (cost == null || interval == null || interval <= 0 || cost.getLong("processCpuNanos") == null) {
      return Spent.UNKNOWN;
    }
    cores = (double) cost.getLong("processCpuNanos") / interval;
    double probes = cost.getLong("probeNanos", 0L) * 1e9 / interval;
    double agent = cost.getLong("agentCpuNanos", 0L) * 1e9 / interval;
    long sideNanos = cost.getLong("sideCpuNanos", -1L);
    double side = sideNanos < 0 ? Double.NaN : sideNanos * 1e9 / interval;
    if (idle) {
      idleNanosPerSecond = smoothed(idleNanosPerSecond, probes + agent);
      idleSideNanosPerSecond = Double.isNaN(side) ? idleSideNanosPerSecond : smoothed(idleSideNanosPerSecond, side);
      return Spent.NONE;
    }
    double base = Double.isNaN(idleNanosPerSecond) ? 0 : idleNanosPerSecond;
    double sideBase = Double.isNaN(idleSideNanosPerSecond) ? 0 : idleSideNanosPerSecond;
    double cpu = Math.max(minCores, cores) * 1e9;
    double recompiling = Double.isNaN(side) ? 0 : Math.max(0, side - sideBase) / cpu;
    return new Spent(probes / cpu, Math.max(0, agent - base) / cpu, recompiling);
  }

  private static double smoothed(double average, double sample) {
    return Double.isNaN(average) ? sample : 0.7 * average + 0.3 * sample;
  }

  String gone() {
    return gone;
  }

  void gone(String reason) {
    gone = reason;
  }
}
