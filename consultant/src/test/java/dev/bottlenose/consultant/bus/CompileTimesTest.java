package dev.bottlenose.consultant.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.bottlenose.bus.protocol.DaemonReplies;
import dev.bottlenose.model.ResourcePath;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

class CompileTimesTest {
  /** As a daemon answers {@code resources} for /VM/JIT at depth 2. */
  private static final JsonObject ANSWER = new JsonObject().put("resources", new JsonArray()
      .add(resource("/VM/JIT/c2", "tier", new JsonObject()))
      .add(method("c1", "com.acme.Numbers.gcd(JJ)J", 1, 2_000_000))
      .add(method("c2", "com.acme.Numbers.gcd(JJ)J", 2, 40_000_000))
      .add(method("c2", "com.acme.Numbers.mix(J)J", 1, 10_000_000))
      .add(method("c2", "com.acme.Mega$Mix.apply(J)J", 1, 5_000_000))
      .add(method("c2", "com.acme.util.Text.words(Ljava/lang/String;)I", 1, 7_000_000))
      .add(method("c2", "Main.loop()V", 1, 3_000_000)));

  @Test
  void eachMethodCostsItsMeanCompilationPerTierSummedOverTiers() {
    CompileTimes times = CompileTimes.of(DaemonReplies.Resources.from(ANSWER));

    assertThat(times.within(ResourcePath.parse("/Code/com.acme/Numbers/gcd(JJ)J"))).isCloseTo(0.022, within(1e-12));
    assertThat(times.within(ResourcePath.parse("/Code/com.acme/Numbers"))).isCloseTo(0.032, within(1e-12));
    assertThat(times.within(ResourcePath.parse("/Code/com.acme/Mega$Mix"))).isCloseTo(0.005, within(1e-12));
    assertThat(times.within(ResourcePath.parse("/Code/com.acme"))).as("not its subpackage com.acme.util")
        .isCloseTo(0.037, within(1e-12));
    assertThat(times.within(ResourcePath.parse("/Code/com.acme.util/Text/words(Ljava/lang/String;)I")))
        .isCloseTo(0.007, within(1e-12));
    assertThat(times.within(ResourcePath.parse("/Code/\"\"/Main"))).as("the default package").isCloseTo(0.003, within(1e-12));
    assertThat(times.within(ResourcePath.parse("/Code"))).isCloseTo(0.047, within(1e-12));
    assertThat(times.within(ResourcePath.parse("/Code/org.other"))).isZero();
    assertThat(times.within(ResourcePath.parse("/Threads"))).isZero();
  }

  @Test
  void listedMethodsAreLookedUpByPath() {
    CompileTimes times = CompileTimes.of(DaemonReplies.Resources.from(ANSWER));

    assertThat(times.of(java.util.List.of(ResourcePath.parse("/Code/com.acme/Numbers/gcd(JJ)J"),
        ResourcePath.parse("/Code/\"\"/Main/loop()V"), ResourcePath.parse("/Code/org.other/A/b()V"),
        ResourcePath.parse("/Code/com.acme/Numbers")))).as("methods only; unlisted ones cost nothing")
        .isCloseTo(0.025, within(1e-12));
    assertThat(times.lists(ResourcePath.parse("/Code/com.acme/Mega$Mix/apply(J)J"))).isTrue();
    assertThat(times.lists(ResourcePath.parse("/Code/com.acme/Mega$Mix/other(J)J"))).isFalse();
    assertThat(times.lists(ResourcePath.parse("/Code/com.acme/Mega$Mix"))).isFalse();
  }

  private static JsonObject method(String tier, String method, long count, long nanos) {
    return resource(ResourcePath.parse("/VM/JIT/" + tier).child(method).toString(), "compilation",
        new JsonObject().put("count", String.valueOf(count)).put("nanos", String.valueOf(nanos)));
  }

  private static JsonObject resource(String path, String kind, JsonObject attributes) {
    return new JsonObject().put("path", path).put("kind", kind).put("attributes", attributes);
  }
}
