package dev.bottlenose.bus;

/** Every event-bus address of the Bottlenose cluster, defined once; the protocol is described in daemon/README.md. */
public final class Addresses {
  /** Daemons announce themselves here ({@code started}, {@code exited}, {@code stopped}). */
  public static final String DAEMONS = "bottlenose.daemons";
  /** Request-reply: the daemons in the cluster, {@code {"daemons":[…]}}. */
  public static final String DAEMONS_LIST = "bottlenose.daemons.list";
  /** The cluster-wide map of announced daemons ({@link Registry}), keyed by daemon id. */
  public static final String DAEMONS_MAP = "bottlenose.daemons";
  /**
   * Each running search's announcement ({@code SearchEvents.Announcement}) when it starts, when what it shows
   * changes and when it ends, from whichever member runs it.
   */
  public static final String SEARCHES = "bottlenose.searches";
  /** The cluster-wide map of running searches ({@link Registry}), keyed by search id: entries of their announcements. */
  public static final String SEARCHES_MAP = "bottlenose.searches";

  private Addresses() {}

  /** The cluster-wide lock (Vert.x shared data) held while a command gets the daemon for a pid on a host. */
  public static String daemonLock(String host, long pid) {
    return "bottlenose.daemon-for." + host + "-" + pid;
  }

  public static String resources(String daemonId) {
    return daemon(daemonId, "resources");
  }

  /**
   * Request-reply: the {@code /Code} path a place in the code written as Java writes it names in the target, {@code
   * {"name":"com.acme.Cache::get"}}; 400 naming the candidates when it names several, or how far it was found.
   */
  public static String codePath(String daemonId) {
    return daemon(daemonId, "codepath");
  }

  public static String enable(String daemonId) {
    return daemon(daemonId, "enable");
  }

  public static String disable(String daemonId) {
    return daemon(daemonId, "disable");
  }

  /** Request-reply: start counting a watched source (JFR events or samples attributed to code). */
  public static String watch(String daemonId) {
    return daemon(daemonId, "watch");
  }

  public static String unwatch(String daemonId) {
    return daemon(daemonId, "unwatch");
  }

  /** Request-reply: start measuring a metric–focus pair, {@code {"metric","focus","requester"}}. */
  public static String metricEnable(String daemonId) {
    return daemon(daemonId, "metric.enable");
  }

  /**
   * Request-reply {@code {"metric","focus"}}: what measuring the pair would insert and its predicted cost,
   * inserting nothing; for any metric the daemon knows, those added at run time included.
   */
  public static String metricPlan(String daemonId) {
    return daemon(daemonId, "metric.plan");
  }

  /** Request-reply: stop a metric, removing exactly its probes and sources, {@code {"metricId"}}. */
  public static String metricDisable(String daemonId) {
    return daemon(daemonId, "metric.disable");
  }

  /** Request-reply: every metric the daemon knows, with description, unit and source. */
  public static String metricsList(String daemonId) {
    return daemon(daemonId, "metrics.list");
  }

  /** Request-reply: add a metric file to the running daemon, {@code {"fileName","text"}}. */
  public static String metricsAdd(String daemonId) {
    return daemon(daemonId, "metrics.add");
  }

  /**
   * Request-reply {@code {"hold": true|false}}: the sending member holds the daemon, or lets go of it; a
   * daemon started for a service or command stops when the last holder lets go or leaves the cluster.
   */
  public static String hold(String daemonId) {
    return daemon(daemonId, "hold");
  }

  public static String ledger(String daemonId) {
    return daemon(daemonId, "ledger");
  }

  public static String status(String daemonId) {
    return daemon(daemonId, "status");
  }

  public static String interval(String daemonId) {
    return daemon(daemonId, "interval");
  }

  /** Request-reply: length and SHA-256 of a class's current bytes, to check a restore byte for byte. */
  public static String classBytes(String daemonId) {
    return daemon(daemonId, "classBytes");
  }

  /** Request-reply: the sampled call graph at a {@code /Code} path, {@code {"path","limit"}}. */
  public static String callGraph(String daemonId) {
    return daemon(daemonId, "callgraph");
  }

  /** Request-reply: one graph's sampled stacks as a tree, for a flame graph, {@code {"graph","max"}}. */
  public static String stacks(String daemonId) {
    return daemon(daemonId, "stacks");
  }

  /** Request-reply: who holds the locks others wait for and what the holder does, {@code {"looks","intervalMillis"}}. */
  public static String holders(String daemonId) {
    return daemon(daemonId, "holders");
  }

  /**
   * Request-reply: the target's JFR recording as it is now (the last two minutes at most), {@code {"maxBytes"}};
   * the reply's body is the file's bytes (a buffer), not JSON ({@code DaemonReplies.Recording}).
   */
  public static String recording(String daemonId) {
    return daemon(daemonId, "recording");
  }

  public static String valuesHistory(String daemonId) {
    return daemon(daemonId, "values.history");
  }

  /** Published every interval: one sample. */
  public static String values(String daemonId) {
    return daemon(daemonId, "values");
  }

  /** Published when the target's resource hierarchies change. */
  public static String changes(String daemonId) {
    return daemon(daemonId, "changes");
  }

  /** Published once when the target exits or its agent goes away. */
  public static String exited(String daemonId) {
    return daemon(daemonId, "exited");
  }

  /** Published: every change of a running search's graph, as JSON ({@code ShgEvent}). */
  public static String searchEvents(String searchId) {
    return search(searchId, "events");
  }

  /** Request-reply: a running search's graph as JSON. */
  public static String searchGraph(String searchId) {
    return search(searchId, "graph");
  }

  /** Request-reply {@code {"reason"}}: the running search ends at its next step. */
  public static String searchStop(String searchId) {
    return search(searchId, "stop");
  }

  private static String search(String searchId, String what) {
    return "bottlenose.search." + searchId + "." + what;
  }

  private static String daemon(String daemonId, String what) {
    return "bottlenose.daemon." + daemonId + "." + what;
  }
}
