package dev.bottlenose.daemon.attach;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bottlenose.daemon.jfr.ClassDefiner;
import java.io.IOException;
import java.lang.management.ClassLoadingMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** This JVM's own performance counters, read from its file as the daemon reads a target's. */
class PerfCountersTest {

  @Test
  void theClassCountsAreTheOnesTheJvmReportsItself() {
    PerfCounters counters = PerfCounters.of(ProcessHandle.current().pid());
    assertThat(counters).as("this JVM's counter file").isNotNull();
    ClassLoadingMXBean classes = ManagementFactory.getClassLoadingMXBean();

    long before = classes.getTotalLoadedClassCount();
    long read = counters.value("java.cls.loadedClasses") + counters.value("java.cls.sharedLoadedClasses");
    long after = classes.getTotalLoadedClassCount();

    assertThat(read).isBetween(before, after);
    assertThat(counters.value("no.such.counter")).isEqualTo(-1);
  }

  @Test
  void theJvmsStringConstantsAreReadAsItStartedWithThem() {
    PerfCounters counters = PerfCounters.of(ProcessHandle.current().pid());

    assertThat(counters.text("java.property.java.version")).isEqualTo(System.getProperty("java.version"));
    assertThat(counters.text("java.property.java.home")).isEqualTo(System.getProperty("java.home"));
    assertThat(counters.text("no.such.counter")).isNull();
    assertThat(PerfCounters.javaVersion(ProcessHandle.current().pid()).feature()).isEqualTo(Runtime.version().feature());
    assertThat(PerfCounters.javaVersion(Long.MAX_VALUE)).isNull();
  }

  @Test
  void classLoadingTimeGrowsByWhatDefiningClassesTakesTheThread() throws Exception {
    PerfCounters counters = PerfCounters.of(ProcessHandle.current().pid());
    ClassDefiner definer = new ClassDefiner();
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    definer.define(2_000);
    long loading = counters.classLoadingNanos();
    long cpu = threads.getCurrentThreadCpuTime();
    long wall = System.nanoTime();
    definer.define(20_000);
    long loaded = counters.classLoadingNanos() - loading;
    long used = threads.getCurrentThreadCpuTime() - cpu;
    wall = System.nanoTime() - wall;

    System.out.printf("class loading %.1f ms, the thread's CPU %.1f ms, wall %.1f ms%n", loaded / 1e6, used / 1e6,
        wall / 1e6);
    // the counter is elapsed time (the thread may be preempted while it defines), summed over threads: a tenth
    // more than the wall time leaves room for a class another thread of this JVM loads meanwhile
    assertThat(loaded).as("the JVM's loading time, of the defining thread's CPU time %d ns", used)
        .isGreaterThan(used / 2).isLessThanOrEqualTo(wall + wall / 10);
  }

  @Test
  void aFileThatIsNotACounterFileIsRefusedAndAProcessWithoutOneHasNone() throws IOException {
    Path file = Files.createTempFile("bottlenose-not-perf", ".bin");
    Files.write(file, new byte[64]);
    assertThatThrownBy(() -> PerfCounters.open(file)).isInstanceOf(IOException.class)
        .hasMessageContaining("not a HotSpot performance-counter file");
    Files.delete(file);
    assertThat(PerfCounters.of(Long.MAX_VALUE)).isNull();
  }
}
