package dev.bottlenose.consultant.bus;

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
        new ResourceChild(CODE, HOT, ResourceChild.CONTAINS, 400),
        new ResourceChild(CODE, UNUSED, ResourceChild.CONTAINS, 0),
        new ResourceChild(CODE, SLEEPY, ResourceChild.CONTAINS, 3));
  }

  @Test
  void tooFewSamplesBetweenThemTellNothing() {
    daemon("busy", 12, Map.of(HOT, 12L), List.of(HOT, UNUSED));
    daemon("idle", 3, Map.of(SLEEPY, 3L), List.of(SLEEPY));
    EventBusResourceOracle oracle = new EventBusResourceOracle(vertx, List.of("busy", "idle"), Duration.ofSeconds(5));

    assertThat(oracle.children(CODE)).hasSize(3).allMatch(c -> c.samples() == ResourceChild.UNKNOWN);
  }

  @Test
  void slowReadsAndWritesOnEitherJvmTellWhichCodeNeverWaitedOnIo() {
    daemon("busy", 400, Map.of(HOT, 400L), Map.of(HOT, 4L), List.of(HOT, UNUSED));
    daemon("idle", 3, Map.of(SLEEPY, 3L), Map.of(SLEEPY, 2L), List.of(SLEEPY, UNUSED));
    EventBusResourceOracle oracle = new EventBusResourceOracle(vertx, List.of("busy", "idle"), Duration.ofSeconds(5));

    assertThat(oracle.children(CODE)).containsExactlyInAnyOrder(
        new ResourceChild(CODE, HOT, ResourceChild.CONTAINS, 400, 4),
        new ResourceChild(CODE, UNUSED, ResourceChild.CONTAINS, 0, 0),
        new ResourceChild(CODE, SLEEPY, ResourceChild.CONTAINS, 3, 2));
  }

  private void daemon(String id, long samples, Map<ResourcePath, Long> sampled, List<ResourcePath> loaded) {
    daemon(id, samples, sampled, Map.of(), loaded);
  }

  /** A daemon answering from two graphs: execution samples ({@code sampled}) and slow I/O ({@code ioWaits}). */
  private void daemon(String id, long samples, Map<ResourcePath, Long> sampled, Map<ResourcePath, Long> ioWaits,
      List<ResourcePath> loaded) {
    vertx.eventBus().<JsonObject>consumer(DaemonProtocol.resources(id), m -> {
      JsonArray resources = new JsonArray();
      loaded.forEach(p -> resources.add(new JsonObject().put("path", p.toString())));
      m.reply(new JsonObject().put("resources", resources));
    });
    vertx.eventBus().<JsonObject>consumer(DaemonProtocol.callGraph(id), m -> {
      boolean io = "io".equals(m.body().getString("graph"));
      Map<ResourcePath, Long> counts = io ? ioWaits : sampled;
      long all = io ? ioWaits.values().stream().mapToLong(Long::longValue).sum() : samples;
      JsonArray children = new JsonArray();
      counts.forEach((p, n) -> children.add(new JsonObject().put("path", p.toString()).put("samples", n)));
      m.reply(new JsonObject().put("samples", all).put("total", all).put("children", children));
    });
  }
}
