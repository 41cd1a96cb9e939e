package dev.bottlenose.bus;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.core.HazelcastInstance;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Real clustered members on loopback: only members that hold the secret exchange messages. An intruder that
 * knows the Hazelcast cluster name (as one sniffing another host's network would) but not the secret sees
 * the addresses and still cannot deliver a message, with TLS under another key or with no TLS at all; and
 * what it puts into a shared map is not deserialised by the members.
 */
class ClusterAdmissionTest {
  private static final String ADDRESS = "bottlenose.test.enable";
  private final List<Vertx> started = new ArrayList<>();
  private final ClusterSecret secret = ClusterSecret.of(UUID.randomUUID().toString(), "test");
  private final AtomicInteger served = new AtomicInteger();

  @AfterEach
  void leave() throws Exception {
    for (Vertx v : started) {
      v.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  @Test
  void membersWithTheSecretTalkAndAnIntruderWithTheClusterNameButNotTheSecretCannotSend() throws Exception {
    Vertx daemon = member(secret, Cluster.eventBusOptions(settings(secret)), null);
    daemon.eventBus().<JsonObject>consumer(ADDRESS, m -> {
      served.incrementAndGet();
      m.reply(new JsonObject().put("inserted", true));
    }).completion().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    Vertx service = member(secret, Cluster.eventBusOptions(settings(secret)), null);
    assertThat(request(service).getBoolean("inserted")).isTrue();
    assertThat(served).hasValue(1);

    EventBusOptions otherKey = Cluster.eventBusOptions(settings(ClusterSecret.of("not the secret", "attacker")));
    Vertx withAnotherKey = member(secret, otherKey, null);
    assertThat(failure(withAnotherKey)).isNotNull();
    EventBusOptions plain = new EventBusOptions().setHost(ClusterSettings.LOOPBACK).setPort(0);
    Vertx withoutTls = member(secret, plain, null);
    assertThat(failure(withoutTls)).isNotNull();
    assertThat(served).as("requests the daemon served").hasValue(1);
    assertThat(request(service).getBoolean("inserted")).as("the members still talk").isTrue();
  }

  @Test
  void aMemberWithAnotherSecretIsInAnotherClusterAndFindsNoHandler() throws Exception {
    Vertx daemon = member(secret, Cluster.eventBusOptions(settings(secret)), null);
    daemon.eventBus().consumer(ADDRESS, m -> served.incrementAndGet()).completion()
        .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    ClusterSecret other = ClusterSecret.of(UUID.randomUUID().toString(), "other user");
    Vertx outsider = member(other, Cluster.eventBusOptions(settings(other)), null);
    Throwable f = failure(outsider);
    assertThat(f).isInstanceOf(ReplyException.class);
    assertThat(((ReplyException) f).failureType()).isEqualTo(ReplyFailure.NO_HANDLERS);
    assertThat(served).hasValue(0);
  }

  @Test
  void anObjectOfAClassOutsideTheAllowListPutIntoASharedMapIsRefusedNotBuilt() throws Exception {
    HazelcastInstance[] intruder = new HazelcastInstance[1];
    Vertx daemon = member(secret, Cluster.eventBusOptions(settings(secret)), null);
    member(secret, new EventBusOptions().setHost(ClusterSettings.LOOPBACK).setPort(0), intruder);
    intruder[0].getMap("bottlenose.daemons").put("evil", new javax.management.BadAttributeValueExpException("gadget"));
    intruder[0].getMap("bottlenose.daemons").put("fine", "a string");
    var map = daemon.sharedData().<String, Object>getAsyncMap("bottlenose.daemons")
        .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    assertThat(map.get("fine").toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS)).isEqualTo("a string");
    try {
      Object got = map.get("evil").toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      assertThat(got).as("the intruder's exception object").isNull();
    } catch (ExecutionException refused) {
      assertThat(refused.getCause()).hasStackTraceContaining(
          "Resolving class javax.management.BadAttributeValueExpException is not allowed");
    }
  }

  private static ClusterSettings settings(ClusterSecret s) {
    return ClusterSettings.loopback(s);
  }

  private Vertx member(ClusterSecret nameFrom, EventBusOptions bus, HazelcastInstance[] instance) throws Exception {
    HazelcastClusterManager manager = new HazelcastClusterManager(Cluster.hazelcastConfig(settings(nameFrom)));
    Vertx v = Vertx.builder().with(new VertxOptions().setEventBusOptions(bus)).withClusterManager(manager)
        .buildClustered().toCompletionStage().toCompletableFuture().get(90, TimeUnit.SECONDS);
    started.add(v);
    if (instance != null) {
      instance[0] = manager.getHazelcastInstance();
    }
    return v;
  }

  private static JsonObject request(Vertx from) throws Exception {
    return from.eventBus().<JsonObject>request(ADDRESS, new JsonObject().put("requester", "test"),
        new DeliveryOptions().setSendTimeout(10_000)).toCompletionStage().toCompletableFuture()
        .get(30, TimeUnit.SECONDS).body();
  }

  private static Throwable failure(Vertx from) throws Exception {
    try {
      JsonObject reply = from.eventBus().<JsonObject>request(ADDRESS, new JsonObject().put("requester", "intruder"),
          new DeliveryOptions().setSendTimeout(4_000)).toCompletionStage().toCompletableFuture()
          .get(30, TimeUnit.SECONDS).body();
      throw new AssertionError("the request was served: " + reply);
    } catch (ExecutionException e) {
      return e.getCause();
    }
  }
}
