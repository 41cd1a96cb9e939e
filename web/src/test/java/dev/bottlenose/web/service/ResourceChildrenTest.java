package dev.bottlenose.web.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.bus.protocol.DaemonReplies;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

class ResourceChildrenTest {

  @Test
  void directChildrenOfAPathWithWhetherTheyHaveChildrenThemselves() {
    JsonArray resources = new JsonArray()
        .add(new JsonObject().put("path", "/Code/com.acme").put("kind", "package"))
        .add(new JsonObject().put("path", "/Code/com.acme/Hot").put("kind", "class"))
        .add(new JsonObject().put("path", "/Code/com.acme/Hot/spin()V").put("kind", "method"))
        .add(new JsonObject().put("path", "/Code/com.acme/Cold").put("kind", "class"));
    JsonObject answer = JvmApi.children("/Code/com.acme", DaemonReplies.Resources.from(new JsonObject().put("resources", resources)));
    assertThat(answer.getString("path")).isEqualTo("/Code/com.acme");
    JsonArray children = answer.getJsonArray("children");
    assertThat(children).hasSize(2);
    assertThat(children.getJsonObject(0).getMap()).containsEntry("path", "/Code/com.acme/Hot").containsEntry("name", "Hot")
        .containsEntry("kind", "class").containsEntry("hasChildren", true);
    assertThat(children.getJsonObject(1).getBoolean("hasChildren")).isFalse();
  }

  @Test
  void theRootListsTheHierarchies() {
    JsonArray resources = new JsonArray()
        .add(new JsonObject().put("path", "/Code").put("kind", "root"))
        .add(new JsonObject().put("path", "/Code/com.acme").put("kind", "package"))
        .add(new JsonObject().put("path", "/Threads").put("kind", "root"));
    JsonArray children = JvmApi.children("/", DaemonReplies.Resources.from(new JsonObject().put("resources", resources))).getJsonArray("children");
    assertThat(children.stream().map(o -> ((JsonObject) o).getString("path"))).containsExactly("/Code", "/Threads");
    assertThat(children.getJsonObject(0).getBoolean("hasChildren")).isTrue();
  }
}
