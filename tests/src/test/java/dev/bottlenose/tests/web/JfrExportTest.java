package dev.bottlenose.tests.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.tests.harness.Bus;
import dev.bottlenose.tests.harness.TargetJvm;
import dev.bottlenose.tests.harness.TargetJvm.Jdk;
import diag.twocauses.PriceService;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.openjdk.jmc.common.item.Aggregators;
import org.openjdk.jmc.common.item.IItemCollection;
import org.openjdk.jmc.common.item.ItemFilters;
import org.openjdk.jmc.flightrecorder.JfrLoaderToolkit;

/**
 * A real search of a real target keeps the target's JFR recording beside the saved search, and {@code export --format
 * jfr} writes it: a file the JDK's own reader parses, holding the execution samples of the target's busy thread
 * (PriceService's {@code pricing}) taken while the search ran, and nothing from after it; JDK Mission Control's
 * parser reads it too.
 */
class JfrExportTest {

  @Test
  void aSearchKeepsItsTargetsRecordingAndExportWritesItAsAJfrFile() throws Exception {
    Path data = Files.createTempDirectory("bottlenose-jfr-export-");
    try (Bus bus = Bus.join(); TargetJvm target = TargetJvm.start(Jdk.JDK17, PriceService.class, "-Ddiag.seconds=400")) {
      WebCli.Run run = WebCli.run(bus.secret(), 200, "search", "--pid", Long.toString(target.pid()), "--budget", "20%",
          "--max-time", "15s", "--data", data.toString(), "--json", "--set", "search.sampling_interval_seconds=0.5");
      assertThat(run.exitCode()).as(run.err()).isIn(0, 3);
      JsonObject saved = new JsonObject(run.out());
      String id = saved.getString("id");
      long started = saved.getLong("startedAtMillis");
      long ended = saved.getLong("endedAtMillis");
      assertThat(saved.getJsonArray("recordings")).as(run.err()).hasSize(1);
      JsonObject kept = saved.getJsonArray("recordings").getJsonObject(0);
      assertThat(kept.getString("file")).as(kept.encode()).isNotNull().startsWith(id + ".").endsWith(".jfr");
      assertThat(kept.getLong("toMillis")).isGreaterThanOrEqualTo(ended);
      assertThat(kept.getLong("fromMillis")).isLessThanOrEqualTo(started);
      assertThat(run.err()).contains("bottlenose: kept " + kept.getString("daemon") + "'s JFR recording in "
          + data.resolve(kept.getString("file")));

      Path out = data.resolve("exported.jfr");
      WebCli.Run export = WebCli.run(bus.secret(), 60, "export", id, "--data", data.toString(), "--format", "jfr",
          "--out", out.toString());
      assertThat(export.exitCode()).as(export.err()).isZero();
      assertThat(Files.readAllBytes(out)).isEqualTo(Files.readAllBytes(data.resolve(kept.getString("file"))));
      assertThat(Files.size(out)).isEqualTo(kept.getLong("bytes"));

      List<RecordedEvent> samples = new ArrayList<>();
      long allSamples = 0;
      long events = 0;
      long last = 0;
      try (RecordingFile f = new RecordingFile(out)) {
        while (f.hasMoreEvents()) {
          RecordedEvent e = f.readEvent();
          events++;
          last = Math.max(last, e.getEndTime().toEpochMilli());
          if (e.getEventType().getName().equals("jdk.ExecutionSample")) {
            allSamples++;
          }
          if (e.getEventType().getName().equals("jdk.ExecutionSample")
              && "pricing".equals(e.getThread("sampledThread").getJavaName())) {
            samples.add(e);
          }
        }
      }
      assertThat(events).isPositive();
      assertThat(last).as("nothing after the dump that followed the search's end")
          .isLessThanOrEqualTo(kept.getLong("toMillis") + 1_000);
      assertThat(samples).as("the pricing thread's execution samples").isNotEmpty();
      assertThat(samples).as("samples taken while the search ran").anySatisfy(e ->
          assertThat(e.getStartTime().toEpochMilli()).isBetween(started, ended));
      assertThat(samples).allSatisfy(e -> assertThat(e.getStartTime().toEpochMilli())
          .isBetween(kept.getLong("fromMillis") - 1_000, kept.getLong("toMillis") + 1_000));
      assertThat(samples).anySatisfy(e -> assertThat(e.getStackTrace().getFrames()).anySatisfy(frame ->
          assertThat(frame.getMethod().getType().getName()).isEqualTo(PriceService.class.getName())));

      // JDK Mission Control's own parser reads the same file, and finds the same execution samples
      IItemCollection items = JfrLoaderToolkit.loadEvents(out.toFile());
      assertThat(items.apply(ItemFilters.type("jdk.ExecutionSample")).getAggregate(Aggregators.count()).longValue())
          .isEqualTo(allSamples);
    } finally {
      try (var files = Files.list(data)) {
        for (Path p : files.toList()) {
          Files.deleteIfExists(p);
        }
      }
      Files.deleteIfExists(data);
    }
  }
}
