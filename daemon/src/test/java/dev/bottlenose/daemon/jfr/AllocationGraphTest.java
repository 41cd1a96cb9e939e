package dev.bottlenose.daemon.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;

/** The {@code alloc} graph: the stacks of JFR's allocation samples, the code that allocates. */
class AllocationGraphTest {
  private static volatile Object sink;

  @Test
  void allocationSamplesGoToTheAllocGraphWithTheirStacks() throws Exception {
    Path file = Files.createTempFile("bottlenose-alloc", ".jfr");
    try (Recording r = new Recording()) {
      r.enable("jdk.ObjectAllocationSample").withStackTrace().with("throttle", "1000/s");
      r.start();
      long end = System.nanoTime() + 1_000_000_000L;
      while (System.nanoTime() < end) {
        churn();
      }
      r.stop();
      r.dump(file);
    }
    List<RecordedEvent> samples = RecordingFile.readAllEvents(file).stream()
        .filter(e -> e.getEventType().getName().equals("jdk.ObjectAllocationSample")).toList();
    Files.delete(file);
    CallGraphs graphs = new CallGraphs();
    DiscoveryEvents events = new DiscoveryEvents(graphs, new LongRunningFrames(tid -> -1), tid -> -1, e -> false);

    samples.forEach(events::accept);

    Map<String, Object> stacks = graphs.get(CallGraphs.ALLOC).stacks(1000);
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> frames = (List<Map<String, Object>>) stacks.get("frames");
    List<String> methods = new ArrayList<>();
    frames.forEach(f -> methods.add((String) f.get("method")));
    assertThat(samples).as("JFR sampled the test's allocations").isNotEmpty();
    assertThat((Long) stacks.get("samples")).as("each allocation sample of the test thread").isPositive();
    assertThat(methods).anyMatch(m -> m.startsWith("/Code/dev.bottlenose.daemon.jfr/AllocationGraphTest/churn("));
    assertThat(graphs.get(CallGraphs.CPU).stacks(10).get("samples")).as("not execution samples").isEqualTo(0L);
  }

  private static void churn() {
    for (int i = 0; i < 1000; i++) {
      sink = new long[64 + (i & 7)];
    }
  }
}
