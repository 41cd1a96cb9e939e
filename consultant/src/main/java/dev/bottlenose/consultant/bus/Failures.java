package dev.bottlenose.consultant.bus;

import dev.bottlenose.consultant.MeasurementFailure;
import dev.bottlenose.consultant.MeasurementFailure.Kind;
import io.vertx.core.eventbus.ReplyException;

/** Turns a daemon's failure reply into what the consultant makes of it. */
final class Failures {
  private Failures() {}

  static MeasurementFailure of(String daemonId, Throwable t) {
    String text = "daemon " + daemonId + ": " + t.getMessage();
    if (!(t instanceof ReplyException e)) {
      return new MeasurementFailure(Kind.METRIC_UNAVAILABLE, text);
    }
    int code = e.failureCode();
    if (code == DaemonProtocol.TARGET_EXITED) {
      return new MeasurementFailure(Kind.TARGET_GONE, text);
    }
    if (code == DaemonProtocol.BAD_INPUT || code == DaemonProtocol.NOT_FOUND) {
      String m = String.valueOf(e.getMessage());
      boolean metric = m.startsWith("no metric") || m.contains("cannot be measured") || m.contains("cannot be refined");
      return new MeasurementFailure(metric ? Kind.METRIC_UNAVAILABLE : Kind.FOCUS_UNKNOWN, text);
    }
    return new MeasurementFailure(Kind.METRIC_UNAVAILABLE, text + " (code " + code + ")");
  }
}
