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
  private volatile String gone;
  private boolean statusAsked;

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

  long pid() {
    return pid;
  }

  /** The target's CPU use in cores over the last sample, NaN before the first. */
  double cores() {
    return cores;
  }

  void sampled(JsonObject sample) {
    JsonObject cost = sample.getJsonObject("cost");
    Long interval = sample.getLong("intervalNanos");
    Long cpu = cost == null ? null : cost.getLong("processCpuNanos");
    if (interval != null && interval > 0 && cpu != null) {
      cores = (double) cpu / interval;
    }
  }

  String gone() {
    return gone;
  }

  void gone(String reason) {
    gone = reason;
  }
}
