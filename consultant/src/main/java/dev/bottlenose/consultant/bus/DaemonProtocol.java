package dev.bottlenose.consultant.bus;

/**
 * The daemons' event-bus addresses the consultant uses. The consultant does not depend on the daemon
 * module, so this mirrors the address table in daemon/README.md ("Event-bus protocol"): requests go to
 * {@code bottlenose.daemon.<id>.<op>}, the cluster's daemons are listed at {@code bottlenose.daemons.list}.
 * Failure codes: 400 bad input, 404 not found, 409 refused, 410 target exited, 500 other, 503 starting.
 */
public final class DaemonProtocol {
  public static final String DAEMONS_LIST = "bottlenose.daemons.list";
  public static final int BAD_INPUT = 400;
  public static final int NOT_FOUND = 404;
  public static final int TARGET_EXITED = 410;

  private DaemonProtocol() {}

  /** Request {@code {"metric","focus","requester"}} → {@code {"metricId","unit","predictedCost",…}}. */
  public static String metricEnable(String daemonId) {
    return daemon(daemonId, "metric.enable");
  }

  /** Request {@code {"metricId"}}: removes exactly that metric's probes and sources. */
  public static String metricDisable(String daemonId) {
    return daemon(daemonId, "metric.disable");
  }

  /** Request → {@code {"metrics":[…],"active":[…]}}. */
  public static String metricsList(String daemonId) {
    return daemon(daemonId, "metrics.list");
  }

  /** Request {@code {"path","depth"}} → {@code {"resources":[{"path","kind","attributes"}…]}}. */
  public static String resources(String daemonId) {
    return daemon(daemonId, "resources");
  }

  /**
   * Request {@code {"path","limit"}} → {@code {"path","samples","total","children":[{"path","samples","relation"}…],
   * "hot":[{"method","self","total"}…]}}: the call graph sampled at a {@code /Code} path.
   */
  public static String callGraph(String daemonId) {
    return daemon(daemonId, "callgraph");
  }

  /** Request → {@code {"state","pid","calibration":{…},…}}. */
  public static String status(String daemonId) {
    return daemon(daemonId, "status");
  }

  /** Request → {@code {"entries":[…],"sources":[…]}}: every probe and source the target holds. */
  public static String ledger(String daemonId) {
    return daemon(daemonId, "ledger");
  }

  /** Published every interval: one sample, with {@code cost} and {@code metrics}. */
  public static String values(String daemonId) {
    return daemon(daemonId, "values");
  }

  /** Published once when the target exits or its agent goes away. */
  public static String exited(String daemonId) {
    return daemon(daemonId, "exited");
  }

  private static String daemon(String daemonId, String op) {
    return "bottlenose.daemon." + daemonId + "." + op;
  }
}
