package dev.bottlenose.web.cluster;

import dev.bottlenose.bus.Addresses;
import dev.bottlenose.bus.Membership;
import dev.bottlenose.bus.Registry;
import dev.bottlenose.bus.protocol.SearchEvents.Announcement;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The searches of the whole cluster, whichever member runs them (a {@code bottlenose search} command, this service,
 * another service): those in the registry of searches now ({@link Addresses#SEARCHES_MAP}, each kept by the member
 * that runs it, so gone with it), and the latest of another member that each JVM's daemon was covered by, as last
 * heard on {@link Addresses#SEARCHES} or read in the registry, which outlives its member (a member that has just
 * joined may publish before it knows this one listens, so the registry is read for it too). {@code changed} runs
 * whenever a search announces itself or a member leaves the cluster.
 */
public final class ClusterSearches {
  private final Vertx vertx;
  private final MessageConsumer<JsonObject> announcements;
  private final Runnable stopListening;
  /** The latest announcement heard of another member's search, by daemon id. */
  private final Map<String, Announcement> latestElsewhere = new ConcurrentHashMap<>();

  public ClusterSearches(Vertx vertx, Runnable changed) {
    this.vertx = vertx;
    this.announcements = vertx.eventBus().consumer(Addresses.SEARCHES, m -> {
      Announcement a = Announcement.fromOrNull(m.body());
      if (a != null) {
        heard(a);
      }
      changed.run();
    });
    this.stopListening = vertx.isClustered() ? Membership.onLeft(vertx, node -> changed.run()) : () -> {};
  }

  /** The searches in the registry now, of members still in the cluster, the latest started first. */
  public Future<List<Announcement>> list() {
    return Registry.open(vertx, Addresses.SEARCHES_MAP).compose(Registry::entries)
        .map(all -> all.stream().map(Announcement::fromOrNull).filter(Objects::nonNull)
            .sorted(Comparator.comparingLong(Announcement::startedAtMillis).reversed()).toList())
        .andThen(ar -> {
          if (ar.succeeded()) {
            ar.result().forEach(this::heard);
          }
        });
  }

  /** Remembers another member's search as the latest of its daemons, unless one of theirs started later. */
  private void heard(Announcement a) {
    if (!isOwn(a)) {
      a.daemons().forEach(d -> latestElsewhere.merge(d, a, (old, now) -> now.startedAtMillis() >= old.startedAtMillis() ? now : old));
    }
  }

  /** The latest search of another member heard of or read that covered {@code daemonId} (it may have ended since), or null. */
  public Announcement latestElsewhere(String daemonId) {
    return latestElsewhere.get(daemonId);
  }

  /** Whether this member runs the search {@code a} announces. */
  public boolean isOwn(Announcement a) {
    return a.node().equals(Membership.self(vertx));
  }

  /** Stops listening. */
  public void close() {
    announcements.unregister();
    stopListening.run();
  }
}
