package dev.bottlenose.consultant.bus;

import dev.bottlenose.bus.Addresses;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.consultant.ResourceChild;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.ResourcePath;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The oracle over two daemons on a real (local) event bus, each a peer answering resources and call graph. */
class SeveralDaemonsOracleTest {
  private static final ResourcePath CODE = Hierarchy.CODE.root();
  private static final ResourcePath HOT = ResourcePath.parse("/Code/com.acme.hot");
  private static final ResourcePath SLEEPY = ResourcePath.parse("/Code/com.acme.sleepy");
  private static final ResourcePath UNUSED = ResourcePath.parse("/Code/com.acme.unused");
  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void aNearlyIdleJvmBesideABusyOneStillLetsTheSamplesTellWhatDidNotRun() {
    daemon("busy", 400, Map.of(HOT, 400L), List.of(HOT, UNUSED));
    daemon("idle", 3, Map.of(SLEEPY, 3L), List.of(SLEEPY, UNUSED));
    EventBusResourceOracle oracle = new EventBusResourceOracle(vertx, List.of("busy", "idle"), Duration.ofSeconds(5));

    assertThat(oracle.children(CODE)).containsExactlyInAnyOrder(
        new ResourceChild(CODE, HOT, ResourceChild.CONTAINS, 400, ResourceChild.NOT_YET, ResourceChild.NOT_YET, ResourceChild.NOT_YET, ResourceChild.NOT_YET),
        new ResourceChild(CODE, UNUSED, ResourceChild.CONTAINS, 0, ResourceChild.NOT_YET, ResourceChild.NOT_YET, ResourceChild.NOT_YET, ResourceChild.NOT_YET),
        new ResourceChild(CODE, SLEEPY, ResourceChild.CONTAINS, 3, ResourceChild.NOT_YET, ResourceChild.NOT_YET, ResourceChild.NOT_YET, ResourceChild.NOT_YET));
  }

  @Test
  void theToolsOwnThreadsAreNeverChildrenToSearch() {
    ResourcePath threads = Hierarchy.THREADS.root();
    vertx.eventBus().<JsonObject>consumer(Addresses.resources("d"), m -> m.reply(new JsonObject().put("resources",
        new JsonArray().add(new JsonObject().put("path", "/Threads/compute").put("attributes", new JsonObject()))
            .add(new JsonObject().put("path", "/Threads/bottlenose").put("attributes", new JsonObject().put("tool", "true"))))));
    EventBusResourceOracle oracle = new EventBusResourceOracle(vertx, List.of("d"), Duration.ofSeconds(5));

    assertThat(oracle.children(threads)).extracting(ResourceChild::child).containsExactly(ResourcePath.parse("/Threads/compute"));
  }

  @Test
  void tooFewSamplesBetweenThemTellNothing() {
    daemon("busy", 12, Map.of(HOT, 12L), List.of(HOT, UNUSED));
    daemon("idle", 3, Map.of(SLEEPY, 3L), List.of(SLEEPY));
    EventBusResourceOracle oracle = new EventBusResourceOracle(vertx, List.of("busy", "idle"), Duration.ofSeconds(5));

    assertThat(oracle.children(CODE)).hasSize(3).allMatch(c -> c.samples() == ResourceChild.NOT_YET);
  }

  @Test
  void slowReadsAndWritesOnEitherJvmTellWhichCodeNeverWaitedOnIo() {
    daemon("busy", 400, Map.of(HOT, 400L), Map.of(HOT, 4L), List.of(HOT, UNUSED));
    daemon("idle", 3, Map.of(SLEEPY, 3L), Map.of(SLEEPY, 2L), List.of(SLEEPY, UNUSED));
    EventBusResourceOracle oracle = new EventBusResourceOracle(vertx, List.of("busy", "idle"), Duration.ofSeconds(5));

    assertThat(oracle.children(CODE)).containsExactlyInAnyOrder(
        new ResourceChild(CODE, HOT, ResourceChild.CONTAINS, 400, 4, ResourceChild.NOT_YET, ResourceChild.NOT_YET, ResourceChild.NOT_YET),
        new ResourceChild(CODE, UNUSED, ResourceChild.CONTAINS, 0, 0, ResourceChild.NOT_YET, ResourceChild.NOT_YET, ResourceChild.NOT_YET),
        new ResourceChild(CODE, SLEEPY, ResourceChild.CONTAINS, 3, 2, ResourceChild.NOT_YET, ResourceChild.NOT_YET, ResourceChild.NOT_YET));
  }

  @Test
  void compilationsOnEitherJvmTellWhichCodeTheJitCompiled() {
    graphs("busy", 400, Map.of("cpu", Map.of(HOT, 400L), "jit", Map.of(HOT, 6L)), List.of(HOT, UNUSED));
    graphs("idle", 3, Map.of("cpu", Map.of(SLEEPY, 3L), "jit", Map.of(SLEEPY, 1L)), List.of(SLEEPY, UNUSED));
    EventBusResourceOracle oracle = new EventBusResourceOracle(vertx, List.of("busy", "idle"), Duration.ofSeconds(5));

    assertThat(oracle.children(CODE)).containsExactlyInAnyOrder(
        new ResourceChild(CODE, HOT, ResourceChild.CONTAINS, 400, ResourceChild.NOT_YET, 6, ResourceChild.NOT_YET, ResourceChild.NOT_YET),
        new ResourceChild(CODE, UNUSED, ResourceChild.CONTAINS, 0, ResourceChild.NOT_YET, 0, ResourceChild.NOT_YET, ResourceChild.NOT_YET),
        new ResourceChild(CODE, SLEEPY, ResourceChild.CONTAINS, 3, ResourceChild.NOT_YET, 1, ResourceChild.NOT_YET, ResourceChild.NOT_YET));
  }

  @Test
  void contendedWaitsTellWhichCodeNeverBlockedOnALockAndWhichCalleeItBlockedIn() {
    ResourcePath caller = ResourcePath.parse("/Code/com.acme/Hot/run()V");
    ResourcePath lockTaker = ResourcePath.parse("/Code/com.acme/Hot/post()V");
    graphs("busy", 400, Map.of("cpu", Map.of(HOT, 400L), "sync", Map.of(HOT, 7L)), List.of(HOT, UNUSED));
    EventBusResourceOracle oracle = new EventBusResourceOracle(vertx, List.of("busy"), Duration.ofSeconds(5));

    assertThat(oracle.children(CODE)).containsExactlyInAnyOrder(
        new ResourceChild(CODE, HOT, ResourceChild.CONTAINS, 400, ResourceChild.NOT_YET, ResourceChild.NOT_YET, 7, ResourceChild.NOT_YET),
        new ResourceChild(CODE, UNUSED, ResourceChild.CONTAINS, 0, ResourceChild.NOT_YET, ResourceChild.NOT_YET, 0, ResourceChild.NOT_YET));
    graphs("blocked", 0, Map.of("sync", Map.of(lockTaker, 6L)), List.of());
    EventBusResourceOracle blocked = new EventBusResourceOracle(vertx, List.of("blocked"), Duration.ofSeconds(5));
    assertThat(blocked.children(caller)).as("a callee only the blocked stacks went through").containsExactly(
        new ResourceChild(caller, lockTaker, ResourceChild.CALLS, 0, ResourceChild.UNKNOWN, ResourceChild.UNKNOWN, 6));
  }

  @Test
  void classesDefinedOnEitherJvmTellWhichCodeLoadsThem() {
    graphs("busy", 400, Map.of("cpu", Map.of(HOT, 400L), "load", Map.of(SLEEPY, 5L)), List.of(HOT, UNUSED));
    graphs("idle", 3, Map.of("cpu", Map.of(SLEEPY, 3L), "load", Map.of(SLEEPY, 2L)), List.of(SLEEPY, UNUSED));
    EventBusResourceOracle oracle = new EventBusResourceOracle(vertx, List.of("busy", "idle"), Duration.ofSeconds(5));

    assertThat(oracle.children(CODE)).as("the loader's code is seldom sampled: it runs in the VM")
        .containsExactlyInAnyOrder(
            new ResourceChild(CODE, HOT, ResourceChild.CONTAINS, 400, ResourceChild.NOT_YET, ResourceChild.NOT_YET,
                ResourceChild.NOT_YET, 0),
            new ResourceChild(CODE, UNUSED, ResourceChild.CONTAINS, 0, ResourceChild.NOT_YET, ResourceChild.NOT_YET,
                ResourceChild.NOT_YET, 0),
            new ResourceChild(CODE, SLEEPY, ResourceChild.CONTAINS, 3, ResourceChild.NOT_YET, ResourceChild.NOT_YET,
                ResourceChild.NOT_YET, 7));
  }

  @Test
  void tooFewCompilationsTellNothing() {
    graphs("busy", 400, Map.of("cpu", Map.of(HOT, 400L), "jit", Map.of(HOT, 4L)), List.of(HOT, UNUSED));
    EventBusResourceOracle oracle = new EventBusResourceOracle(vertx, List.of("busy"), Duration.ofSeconds(5));

    assertThat(oracle.children(CODE)).hasSize(2).allMatch(c -> c.compilations() == ResourceChild.NOT_YET);
  }

  private void daemon(String id, long samples, Map<ResourcePath, Long> sampled, List<ResourcePath> loaded) {
    daemon(id, samples, sampled, Map.of(), loaded);
  }

  private void daemon(String id, long samples, Map<ResourcePath, Long> sampled, Map<ResourcePath, Long> ioWaits,
      List<ResourcePath> loaded) {
    graphs(id, samples, Map.of("cpu", sampled, "io", ioWaits), loaded);
  }

  /**
   * A daemon answering from its graphs by name: {@code cpu} (execution samples, {@code samples} in all),
   * {@code io}, {@code sync}, {@code jit} and {@code load}, each of these counted in all as the sum of its children.
   */
  private void graphs(String id, long samples, Map<String, Map<ResourcePath, Long>> graphs, List<ResourcePath> loaded) {
    vertx.eventBus().<JsonObject>consumer(Addresses.resources(id), m -> {
      JsonArray resources = new JsonArray();
      loaded.forEach(p -> resources.add(new JsonObject().put("path", p.toString())));
      m.reply(new JsonObject().put("resources", resources));
    });
    vertx.eventBus().<JsonObject>consumer(Addresses.callGraph(id), m -> {
      String graph = m.body().getString("graph", "cpu");
      Map<ResourcePath, Long> counts = graphs.getOrDefault(graph, Map.of());
      long all = graph.equals("cpu") ? samples : counts.values().stream().mapToLong(Long::longValue).sum();
      JsonArray children = new JsonArray();
      counts.forEach((p, n) -> children.add(new JsonObject().put("path", p.toString()).put("samples", n)));
      m.reply(new JsonObject().put("samples", all).put("total", all).put("children", children));
    });
  }
}
