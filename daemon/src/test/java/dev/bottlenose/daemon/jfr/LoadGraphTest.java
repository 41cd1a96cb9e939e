package dev.bottlenose.daemon.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.agent.discovery.DiscoverySettings;
import dev.bottlenose.model.ResourcePath;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;

/**
 * The {@code load} graph: each class the program defines, counted at the class of the loader that defined it (or at
 * the class itself when one of the JDK's loaders did, SourceCounterTest); from {@code jdk.ClassDefine} events without
 * stacks, as discovery records them.
 */
class LoadGraphTest {
  private static final String PACKAGE = "/Code/dev.bottlenose.daemon.jfr";

  @Test
  void classesDefinedCountAtTheLoadersClassOrAtTheClassTheJdksLoaderDefined() throws Exception {
    ClassDefiner definer = new ClassDefiner();
    definer.define(1);  // the application's loader defines the definer's own classes first, before the recording
    Path file = Files.createTempFile("bottlenose-loads", ".jfr");
    try (Recording r = new Recording()) {
      r.setSettings(Map.of(DiscoverySettings.CLASS_DEFINE + "#enabled", "true",
          DiscoverySettings.CLASS_DEFINE + "#stackTrace", "false"));
      r.start();
      Thread thread = new Thread(() -> definer.define(30), "plugin-host");
      thread.start();
      thread.join();
      r.stop();
      r.dump(file);
    }
    List<RecordedEvent> defines = RecordingFile.readAllEvents(file).stream()
        .filter(e -> e.getEventType().getName().equals(DiscoverySettings.CLASS_DEFINE))
        .filter(e -> "plugin-host".equals(e.getThread("eventThread").getJavaName())).toList();
    Files.delete(file);
    CallGraphs graphs = new CallGraphs();
    DiscoveryEvents events = new DiscoveryEvents(graphs, new LongRunningFrames(tid -> -1), tid -> -1, e -> false);

    defines.forEach(events::accept);

    CallGraph loads = graphs.get(CallGraphs.LOAD);
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> classes = (List<Map<String, Object>>) loads.at(ResourcePath.parse(PACKAGE), 100)
        .get("children");
    Map<String, Long> byClass = new java.util.TreeMap<>();
    classes.forEach(c -> byClass.merge((String) c.get("path"), ((Number) c.get("samples")).longValue(), Long::sum));
    assertThat(byClass).as("the plugin loader's classes, at its class").isEqualTo(Map.of(PACKAGE + "/ClassDefiner$OneClass", 30L));
    assertThat(loads.at(ResourcePath.parse("/Code"), 10).get("samples")).as("every class the thread defined")
        .isEqualTo(30L);
    assertThat(((Number) loads.at(ResourcePath.parse("/Code/java.lang"), 10).get("total")).longValue())
        .as("the JDK's code that ran the loading is not charged").isZero();
    assertThat(graphs.get(CallGraphs.CPU).stacks(10).get("samples")).as("not execution samples").isEqualTo(0L);
  }
}
