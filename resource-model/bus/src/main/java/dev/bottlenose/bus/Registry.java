package dev.bottlenose.bus;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.core.shareddata.AsyncMap;
import java.util.ArrayList;
import java.util.List;

/**
 * A cluster-wide registry (a Vert.x shared map, so a Hazelcast map only members reach) whose entries are kept by the
 * member that has them: each entry is a JSON object naming its member in {@value #NODE}, put with a time to live of
 * {@value #TTL_MILLIS} ms and put again every third of it while its member {@link Entry keeps} it. An entry goes when
 * its member removes it, when its member leaves or dies (its entries are left out of {@link #entries} at once, and
 * expire when no one refreshes them), and an entry that is not a JSON object of a live member is ignored. The
 * daemons register here ({@link Addresses#DAEMONS_MAP}), and so do the searches ({@link Addresses#SEARCHES_MAP}).
 */
public final class Registry {
  /** How long an entry lasts after its member last put it. */
  public static final long TTL_MILLIS = 15_000;
  /** The field of an entry that names its member's node id. */
  public static final String NODE = "node";

  private final Vertx vertx;
  private final AsyncMap<String, JsonObject> map;

  private Registry(Vertx vertx, AsyncMap<String, JsonObject> map) {
    this.vertx = vertx;
    this.map = map;
  }

  /** The registry {@code name} of the cluster {@code vertx} is in (of this process alone when it is not clustered). */
  public static Future<Registry> open(Vertx vertx, String name) {
    return vertx.sharedData().<String, JsonObject>getAsyncMap(name).map(map -> new Registry(vertx, map));
  }

  /**
   * Puts {@code value} under {@code key} and keeps it there until {@link Entry#remove} (or this member's end); the
   * future completes once it is in.
   */
  public Future<Entry> keep(String key, JsonObject value) {
    Entry entry = new Entry(key, value);
    return entry.put().map(entry);
  }

  /** The entries of members still in the cluster, as JSON objects; anything else in the map is left out. */
  public Future<List<JsonObject>> entries() {
    return map.entries().map(all -> {
      List<JsonObject> live = new ArrayList<>();
      for (Object value : all.values()) {
        if (value instanceof JsonObject j && j.getValue(NODE) instanceof String node
            && (!vertx.isClustered() || Membership.isMember(vertx, node))) {
          live.add(j);
        }
      }
      return live;
    });
  }

  /** One entry this member keeps: put again every third of the time to live, with its latest value. */
  public final class Entry {
    private final String key;
    private volatile JsonObject value;
    private final long timer;

    private Entry(String key, JsonObject value) {
      this.key = key;
      this.value = value;
      this.timer = vertx.setPeriodic(TTL_MILLIS / 3, t -> put());
    }

    /** Puts {@code value} now, and from now on. */
    public Future<Void> update(JsonObject value) {
      this.value = value;
      return put();
    }

    /** Puts {@code value} a last time: it is no longer refreshed, so it lasts {@value Registry#TTL_MILLIS} ms, or until its member leaves. */
    public Future<Void> last(JsonObject value) {
      vertx.cancelTimer(timer);
      this.value = value;
      return put();
    }

    private Future<Void> put() {
      return map.put(key, value, TTL_MILLIS);
    }

    /** Stops refreshing the entry and removes it. */
    public Future<Void> remove() {
      vertx.cancelTimer(timer);
      return map.remove(key).mapEmpty();
    }
  }
}
