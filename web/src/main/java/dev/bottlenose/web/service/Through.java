package dev.bottlenose.web.service;

import dev.bottlenose.bus.Addresses;
import dev.bottlenose.bus.protocol.DaemonReplies;
import dev.bottlenose.bus.protocol.DaemonRequests;
import dev.bottlenose.consultant.SavedSearch;
import dev.bottlenose.model.CodeNames;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.ResourcePath;
import dev.bottlenose.web.render.StacksThrough;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * The {@code through} parameter of the stacks endpoints ({@code GET /api/jvms/{id}/stacks}, {@code GET
 * /api/searches/{id}/stacks}): the code whose stacks a flame graph keeps ({@link StacksThrough}), a finding's flame
 * graph ({@code flame.through} of a finding). Written as a {@code /Code} path (a finding's focus) or as Java writes
 * it; a Java name is resolved by the JVM's daemon, the one resolver {@code POST /api/plots} uses too
 * ({@link #resolve}).
 */
final class Through {
  private Through() {}

  /**
   * The code {@code text} names (null when it is null), in the JVM of {@code daemonId}: a {@code /Code} path of a
   * package, class or method as it is (a code no stack reaches leaves an empty tree), a Java name as the daemon
   * resolves it. Ill-formed, or naming no code or several places: 400 saying what is wrong.
   */
  static Future<ResourcePath> code(Vertx vertx, String daemonId, String text) {
    if (text == null) {
      return Future.succeededFuture();
    }
    if (CodeNames.isJavaName(text)) {
      return resolve(vertx, daemonId, text).recover(e -> Future.failedFuture(Http.status(e) == 503
          ? ApiException.badRequest("'through' " + text + " is written as Java, which the daemon of " + daemonId
              + " resolves, and no daemon of " + daemonId + " answers (its JVM has exited?): write it as a /Code path,"
              + " as a finding's flame.through does")
          : new ApiException(Http.status(e), "'through': " + e.getMessage())));
    }
    ResourcePath code;
    try {
      code = ResourcePath.parse(text.strip());
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(ApiException.badRequest("'through' must be a /Code path or a Java name"
          + " (com.acme.Cache.get(Object)), is '" + text + "': " + e.getMessage()));
    }
    if (code.hierarchy() != Hierarchy.CODE || code.isRoot()) {
      return Future.failedFuture(ApiException.badRequest("'through' names a package, a class or a method"
          + " (/Code/com.acme/Cache, com.acme.Cache.get(Object)), is '" + text + "'"
          + (code.isRoot() && code.hierarchy() == Hierarchy.CODE ? ": all the code, which every stack passes through;"
              + " leave 'through' out" : "")));
    }
    return Future.succeededFuture(code);
  }

  /**
   * The {@code /Code} path Java name {@code text} names in the JVM of {@code daemonId}, as its daemon resolves it
   * ({@code codepath}, {@link CodeNames}): which readings of a name exist only the target's loaded classes tell.
   */
  static Future<ResourcePath> resolve(Vertx vertx, String daemonId, String text) {
    return vertx.eventBus()
        .<JsonObject>request(Addresses.codePath(daemonId), new DaemonRequests.CodePath(text).toJson())
        .map(m -> DaemonReplies.CodePath.from(m.body()).path());
  }

  /**
   * {@code stacks} (a stacks answer: {@code samples}, {@code frames}) with only the stacks through {@code code}, and
   * {@code through} saying so; as it is when {@code code} is null.
   */
  static JsonObject keep(JsonObject stacks, ResourcePath code) {
    if (code == null) {
      return stacks;
    }
    List<SavedSearch.Stacks.Frame> frames = stacks.getJsonArray("frames").stream().map(o -> (JsonObject) o)
        .map(f -> new SavedSearch.Stacks.Frame(f.getInteger("parent"), f.getString("method"), f.getLong("total"),
            f.getLong("self"))).toList();
    StacksThrough.Kept kept = StacksThrough.of(frames, code);
    return stacks.copy().put("through", code.toString()).put("samples", kept.samples())
        .put("frames", json(kept.frames()));
  }

  /** Frames in the answers' shape, {@code {parent, method, total, self}}. */
  static JsonArray json(List<SavedSearch.Stacks.Frame> frames) {
    JsonArray out = new JsonArray();
    frames.forEach(f -> out.add(new JsonObject().put("parent", f.parent()).put("method", f.method())
        .put("total", f.total()).put("self", f.self())));
    return out;
  }
}
