package dev.bottlenose.bus.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bottlenose.bus.protocol.SearchEvents.Announcement;
import dev.bottlenose.bus.protocol.SearchEvents.Family;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

class SearchEventsTest {
  private static final Announcement RUNNING = new Announcement("s-1", List.of("h-42", "h-43"), "node-1", "h", 4242,
      "alice", "bottlenose search", 0.05, 1_700_000_000_000L, SearchEvents.RUNNING, null, 12, 2,
      "CPU-bound at com.acme.Sim.step()", List.of(new Family("cpu_bound", "true", 0.9, 0.3, 1.0),
          new Family("sync_wait", "untested", null, null, 0.25)), "/home/alice/data/searches/s-1.json");

  @Test
  void anAnnouncementReadsBackWhatItWritesAlsoAfterTheClustersEncoding() {
    Announcement ended = new Announcement("s-1", List.of("h-42"), "node-1", "h", 4242, "alice", "bottlenose serve", 0.2,
        1L, SearchEvents.ENDED, "converged", 0, 0, null, List.of(), null);
    for (Announcement a : List.of(RUNNING, ended)) {
      assertThat(Announcement.from(a.toJson())).isEqualTo(a);
      assertThat(Announcement.from(new JsonObject(a.toJson().encode()))).isEqualTo(a);
    }
    assertThat(RUNNING.isRunning()).isTrue();
    assertThat(ended.isRunning()).isFalse();
    assertThat(RUNNING.covers("h-43")).isTrue();
    assertThat(RUNNING.covers("h-44")).isFalse();
  }

  @Test
  void theWireKeepsItsFieldsAndItsNulls() {
    JsonObject o = RUNNING.toJson();
    assertThat(o.fieldNames()).containsExactly("searchId", "daemons", "node", "host", "processId", "user", "startedBy",
        "budget", "startedAtMillis", "state", "nodes", "trueNodes", "topFinding", "families", "savedIn");
    assertThat(o.getJsonArray("families").getJsonObject(1).encode())
        .isEqualTo("{\"family\":\"sync_wait\",\"state\":\"untested\",\"value\":null,\"threshold\":null,\"confidence\":0.25}");
  }

  @Test
  void whatIsNotASearchsAnnouncementIsRefusedNamingTheField() {
    assertThatThrownBy(() -> Announcement.from(RUNNING.toJson().put("nodes", "many"))).isInstanceOf(BadField.class)
        .hasMessage("'nodes' must be a whole number, not \"many\"");
    assertThatThrownBy(() -> Announcement.from(new JsonObject().put("searchId", "s").put("state", "running")))
        .isInstanceOf(BadField.class).hasMessageContaining("'node' is missing");
    assertThat(Announcement.fromOrNull(new JsonObject().put("daemonId", "h-42"))).isNull();
    assertThat(Announcement.fromOrNull("text")).isNull();
  }
}
