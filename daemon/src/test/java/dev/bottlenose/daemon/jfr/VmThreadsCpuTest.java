package dev.bottlenose.daemon.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

class VmThreadsCpuTest {
  @Test
  @EnabledOnOs(OS.LINUX)
  void findsThisJvmsCompilerThreadsAndTheirTimeGrowsWhenTheyCompile() throws Exception {
    VmThreadsCpu side = new VmThreadsCpu(ProcessHandle.current().pid());
    long before = side.nanos();
    assertThat(before).as("the VM Thread and compiler threads of this JVM have run").isPositive();
    long sum = 0;
    for (int round = 0; round < 200 && side.nanos() == before; round++) {
      sum += Generated.compileSomething(round);
    }
    assertThat(side.nanos()).as("after making the JIT work (%s)", sum).isGreaterThan(before);
  }

  @Test
  void aProcessThatDoesNotExistTellsNothing() throws Exception {
    long pid = Long.MAX_VALUE - 1;
    assertThat(Files.exists(Path.of("/proc", Long.toString(pid)))).isFalse();
    assertThat(new VmThreadsCpu(pid).nanos()).isEqualTo(-1);
  }

  /** Work the JIT compiles: a loop hot enough to be compiled at C1 and then C2. */
  static final class Generated {
    static long compileSomething(int seed) {
      long x = seed;
      for (int i = 0; i < 200_000; i++) {
        x = x * 6364136223846793005L + (i ^ (x >>> 17));
      }
      return x;
    }
  }
}
