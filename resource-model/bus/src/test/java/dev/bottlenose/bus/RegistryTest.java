package dev.bottlenose.bus;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The registry on a Vert.x of its own: an entry is there while kept, with its latest value, and gone once removed. */
class RegistryTest {
  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() throws Exception {
    await(vertx.close());
  }

  @Test
  void anEntryIsListedWithItsLatestValueWhileKeptAndGoneOnceRemoved() throws Exception {
    Registry registry = await(Registry.open(vertx, "test.registry"));
    Registry.Entry entry = await(registry.keep("a", new JsonObject().put(Registry.NODE, Membership.LOCAL).put("v", 1)));
    assertThat(values(registry)).containsExactly(1);
    await(entry.update(new JsonObject().put(Registry.NODE, Membership.LOCAL).put("v", 2)));
    assertThat(values(registry)).containsExactly(2);
    await(entry.remove());
    assertThat(await(registry.entries())).isEmpty();
  }

  @Test
  void anEntryThatNamesNoMemberIsLeftOut() throws Exception {
    Registry registry = await(Registry.open(vertx, "test.registry"));
    await(vertx.sharedData().<String, Object>getAsyncMap("test.registry").compose(m -> m.put("stray", "not JSON")));
    await(registry.keep("anonymous", new JsonObject().put("v", 3)));
    assertThat(await(registry.entries())).isEmpty();
  }

  private static List<Integer> values(Registry registry) throws Exception {
    return await(registry.entries()).stream().map(j -> j.getInteger("v")).toList();
  }

  private static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }
}
