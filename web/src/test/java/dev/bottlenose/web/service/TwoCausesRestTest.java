package dev.bottlenose.web.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The findings over REST of a saved search of a program with two planted causes, a lock three threads wait for and
 * a method one thread keeps on the CPU (saved by the diagnosis benchmark, as consultant's FindingsTest reads it).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TwoCausesRestTest {
  private static final String ID = "s-20261128-200219-7554";
  @TempDir
  static Path data;
  private ServiceFixture fixture;

  @BeforeAll
  void start() throws Exception {
    Files.copy(Path.of(getClass().getResource("/searches/" + ID + ".json").toURI()), data.resolve(ID + ".json"));
    fixture = new ServiceFixture(data, null);
  }

  @AfterAll
  void stop() throws Exception {
    fixture.close();
  }

  @Test
  void twoPlantedCausesAreTwoFindingsRankedByImpactEachWithItsEvidenceAndNextStep() throws Exception {
    JsonObject answer = new JsonObject(fixture.get("/api/searches/" + ID + "/findings").body());

    assertThat(answer.getString("searchId")).isEqualTo(ID);
    assertThat(answer.getBoolean("running")).isFalse();
    JsonArray findings = answer.getJsonArray("findings");
    assertThat(findings).hasSize(2);
    List<JsonObject> f = List.of(findings.getJsonObject(0), findings.getJsonObject(1));
    assertThat(f).extracting(o -> o.getInteger("rank")).containsExactly(1, 2);
    assertThat(f).extracting(o -> o.getString("hypothesis")).containsExactly("sync_wait", "cpu_bound");
    assertThat(f.get(0).getJsonObject("impact").getDouble("secondsPerSecond"))
        .isGreaterThan(f.get(1).getJsonObject("impact").getDouble("secondsPerSecond"));
    assertThat(f.get(0).getJsonArray("threads").getList()).containsExactly("quote-0", "quote-1", "quote-2");
    assertThat(f.get(0).getJsonObject("impact").getString("text"))
        .isEqualTo("3 threads spend 68% of their time blocked waiting for a lock on average (2.04 s per second in all)");
    assertThat(f.get(1).getString("where")).isEqualTo("diag.twocauses.PriceService.price(double, double, double, int)");
    assertThat(f.get(1).getJsonObject("impact").getString("text")).isEqualTo("thread pricing spends all of its time on the CPU");
    for (JsonObject o : f) {
      JsonObject evidence = o.getJsonObject("evidence");
      assertThat(evidence.getDouble("value")).isGreaterThan(evidence.getDouble("bar"));
      assertThat(evidence.getString("unit")).isEqualTo("fraction of time");
      assertThat(evidence.getString("text")).startsWith(evidence.getString("metric") + " ").contains(" s per second > ");
      assertThat(o.getDouble("measuringCost")).isGreaterThanOrEqualTo(0.0);
      assertThat(o.getString("nextStep")).isNotBlank();
    }
    assertThat(f.get(0).getJsonObject("evidence").getString("text"))
        .startsWith("sync_wait 0.7393 s per second > 0.21 (threshold 0.2 + 5% hysteresis)");
    assertThat(f.get(1).getJsonObject("evidence").getString("text"))
        .startsWith("cpu_inclusive 1.042 s per second > 0.315 (threshold 0.3 + 5% hysteresis)");
    assertThat(f).extracting(o -> o.getString("measuringCostText"))
        .containsExactly("measuring it cost 0.04% of the target's CPU", "measuring it cost under 0.01% of the target's CPU");
  }
}
