package dev.bottlenose.consultant.bus;

import dev.bottlenose.bus.Addresses;
import dev.bottlenose.bus.DaemonIds;
import dev.bottlenose.bus.Membership;
import dev.bottlenose.bus.Registry;
import dev.bottlenose.bus.protocol.SearchEvents;
import dev.bottlenose.consultant.Findings;
import dev.bottlenose.consultant.NodeState;
import dev.bottlenose.consultant.Search;
import dev.bottlenose.consultant.SearchHistoryGraph;
import dev.bottlenose.consultant.Settings;
import dev.bottlenose.consultant.ShgNode;
import dev.bottlenose.model.Focus;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Tells the cluster about one search this process runs, so that a service shows it whoever runs it: its announcement
 * ({@link SearchEvents.Announcement}) is kept in the registry of searches ({@link Addresses#SEARCHES_MAP}) and
 * published on {@link Addresses#SEARCHES} when the search starts, when its headline changes (looked at most every
 * {@value #HEADLINE_EVERY_MILLIS} ms) and when it ends. Once the search is saved its entry is no longer refreshed, so
 * it goes {@value Registry#TTL_MILLIS} ms later, or at once when this process leaves the cluster, however it ends.
 */
public final class SearchAnnouncer {
  /** The top-level hypotheses, one status dot each on the JVMs page. */
  public static final List<String> FAMILIES = List.of("cpu_bound", "sync_wait", "io_wait", "memory_pressure");
  static final long HEADLINE_EVERY_MILLIS = 2_000;

  private final Vertx vertx;
  private final Search search;
  private final List<String> daemons;
  private final String startedBy;
  private final Path savedIn;
  private volatile Registry.Entry entry;
  private volatile JsonObject last;
  private long lookedAt;

  SearchAnnouncer(Vertx vertx, Search search, List<String> daemons, String startedBy, Path savedIn) {
    this.vertx = vertx;
    this.search = search;
    this.daemons = List.copyOf(daemons);
    this.startedBy = startedBy;
    this.savedIn = savedIn.toAbsolutePath().normalize();
  }

  /** Registers the search; a registry that cannot be reached leaves it unannounced, never fails the search. */
  void start() {
    JsonObject first = announcement(false).toJson();
    last = first;
    Registry.open(vertx, Addresses.SEARCHES_MAP).compose(r -> r.keep(search.id(), first)).onSuccess(e -> {
      entry = e;
      vertx.eventBus().publish(Addresses.SEARCHES, last);
    });
  }

  /**
   * Looks at the search's headline (on the step's thread), announcing it when it changed: at most every few seconds
   * while it runs, and at once when it has ended.
   */
  void step() {
    long now = System.currentTimeMillis();
    if (now - lookedAt >= HEADLINE_EVERY_MILLIS || search.isFinished()) {
      lookedAt = now;
      announce(false);
    }
  }

  /** Announces the search as it is once saved, its end reason included; from now on its entry is not refreshed. */
  Future<Void> ended() {
    return announce(true);
  }

  private Future<Void> announce(boolean end) {
    JsonObject now = announcement(end).toJson();
    Registry.Entry e = entry;
    if (e == null || now.equals(last) && !end) {
      return Future.succeededFuture();
    }
    last = now;
    vertx.eventBus().publish(Addresses.SEARCHES, now);
    return (end ? e.last(now) : e.update(now)).recover(t -> Future.succeededFuture());
  }

  /** The search's announcement now; {@code over}: it is saved, so ended whatever its graph says. */
  SearchEvents.Announcement announcement(boolean over) {
    SearchHistoryGraph graph = search.graph();
    int nodes;
    int trueNodes = 0;
    List<SearchEvents.Family> families;
    String top;
    synchronized (search) {
      nodes = graph.nodes().size();
      for (ShgNode n : graph.nodes()) {
        trueNodes += n.state() == NodeState.TRUE ? 1 : 0;
      }
      families = families(graph, search.settings());
      List<Findings.Finding> findings = search.findings();
      top = findings.isEmpty() ? null : findings.get(0).why() + " at " + findings.get(0).where();
    }
    boolean ended = over || search.isFinished();
    return new SearchEvents.Announcement(search.id(), daemons, Membership.self(vertx), DaemonIds.localHost(),
        ProcessHandle.current().pid(), System.getProperty("user.name"), startedBy,
        search.settings().number("budget.fraction"), search.startedAtMillis(),
        ended ? SearchEvents.ENDED : SearchEvents.RUNNING, ended ? search.endReason() : null, nodes, trueNodes, top,
        families, savedIn.toString());
  }

  /**
   * The verdicts of the top-level hypotheses at the whole program in {@code graph}: a family under test (or stopped)
   * is untested, with the share of the evidence time it has had as its confidence; one not in the graph is untested
   * with none.
   */
  public static List<SearchEvents.Family> families(SearchHistoryGraph graph, Settings settings) {
    List<SearchEvents.Family> out = new ArrayList<>();
    for (String family : FAMILIES) {
      ShgNode n = graph.find(family, Focus.WHOLE_PROGRAM);
      if (n == null) {
        out.add(new SearchEvents.Family(family, "untested", null, null, 0.0));
        continue;
      }
      String state = n.state() == NodeState.STOPPED || n.state() == NodeState.TESTING ? "untested" : n.state().word();
      out.add(new SearchEvents.Family(family, state, finite(n.value()), finite(n.threshold()), confidence(n, settings)));
    }
    return out;
  }

  /** 1 for a verdict of true or false; for a node under test, the share of the evidence time it has had; else 0. */
  static double confidence(ShgNode n, Settings settings) {
    return switch (n.state()) {
      case TRUE, FALSE -> 1.0;
      case TESTING -> n.testedSinceMillis() == 0 ? 0.0 : Math.min(1.0, (System.currentTimeMillis() - n.testedSinceMillis())
          / (1000.0 * (settings.number("search.sufficient_seconds", 6) + settings.number("search.min_observation_seconds", 1))));
      default -> 0.0;
    };
  }

  private static Double finite(double d) {
    return Double.isNaN(d) || Double.isInfinite(d) ? null : d;
  }
}
