package dev.bottlenose.consultant.bus;

import dev.bottlenose.consultant.ResourceChild;
import dev.bottlenose.consultant.ResourceOracle;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.ResourcePath;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A {@link ResourceOracle} over the daemons' {@code resources} request (depth 1): the children of a path
 * are the union of what every daemon of the search has below it, asked once per path and kept for the
 * search. The daemons offer no call graph yet, so a {@code /Code} method has no children here: CPU-bound
 * is refined along the {@code /Code} hierarchy (package → class → method) and stops at the method.
 *
 * <p>A daemon that fails to answer makes that path childless for this step (not cached).
 * It blocks on the event bus, so it must be called from a worker thread, never from an event loop.
 */
public final class EventBusResourceOracle implements ResourceOracle {
  private static final int METHOD_DEPTH = 3;

  private final Vertx vertx;
  private final List<String> daemonIds;
  private final Duration timeout;
  private final Map<ResourcePath, List<ResourceChild>> cache = new ConcurrentHashMap<>();

  public EventBusResourceOracle(Vertx vertx, List<String> daemonIds, Duration timeout) {
    this.vertx = vertx;
    this.daemonIds = List.copyOf(daemonIds);
    this.timeout = timeout;
  }

  @Override
  public List<ResourceChild> children(ResourcePath path) {
    if (path.hierarchy() == Hierarchy.CODE && path.depth() >= METHOD_DEPTH) {
      return List.of();
    }
    try {
      return cache.computeIfAbsent(path, this::ask);
    } catch (IllegalStateException e) {
      return List.of();
    }
  }

  private List<ResourceChild> ask(ResourcePath path) {
    Set<ResourcePath> found = new LinkedHashSet<>();
    for (String id : daemonIds) {
      for (Object o : resources(id, path).getJsonArray("resources")) {
        ResourcePath p = ResourcePath.parse(((JsonObject) o).getString("path"));
        if (!p.isRoot() && p.parent().equals(path)) {
          found.add(p);
        }
      }
    }
    List<ResourceChild> children = new ArrayList<>();
    found.forEach(p -> children.add(new ResourceChild(path, p, ResourceChild.CONTAINS)));
    return List.copyOf(children);
  }

  private JsonObject resources(String daemonId, ResourcePath path) {
    JsonObject body = new JsonObject().put("path", path.toString()).put("depth", 1);
    try {
      return vertx.eventBus().<JsonObject>request(DaemonProtocol.resources(daemonId), body)
          .toCompletionStage().toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS).body();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof ReplyException r && r.failureCode() == DaemonProtocol.NOT_FOUND) {
        return new JsonObject().put("resources", new io.vertx.core.json.JsonArray());
      }
      throw new IllegalStateException("daemon " + daemonId + " could not list " + path + ": " + e.getCause().getMessage(), e);
    } catch (TimeoutException e) {
      throw new IllegalStateException("daemon " + daemonId + " did not list " + path + " within " + timeout.toMillis() + " ms", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while listing " + path, e);
    }
  }
}
