package dev.bottlenose.tests.bench;

import dev.bottlenose.tests.harness.TargetJvm;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A benchmark workload's JVM ({@link WorkloadDriver}) and the units its workers have completed so far. */
final class WorkloadJvm implements AutoCloseable {
  private final TargetJvm jvm;
  private final Path file;
  private final ByteBuffer units;

  private WorkloadJvm(TargetJvm jvm, Path file, ByteBuffer units) {
    this.jvm = jvm;
    this.file = file;
    this.units = units;
  }

  static WorkloadJvm start(Class<?> workload, List<String> jvmOptions) throws IOException {
    Path file = Files.createTempFile("bench-units-", ".bin");
    ByteBuffer units = WorkloadDriver.mapUnits(file);
    List<String> options = new ArrayList<>(jvmOptions);
    options.add("-D" + WorkloadDriver.UNITS_PROPERTY + "=" + file);
    try {
      return new WorkloadJvm(TargetJvm.start(TargetJvm.Jdk.JDK17, workload, options.toArray(String[]::new)), file,
          units);
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(file);
      throw e;
    }
  }

  long pid() {
    return jvm.pid();
  }

  /** Units completed by all workers so far, read from the mapped file (no question is put to the program). */
  long units() {
    long sum = 0;
    for (int i = 0; i < WorkloadDriver.SLOTS; i++) {
      sum += units.getLong(i * Long.BYTES);
    }
    return sum;
  }

  @Override
  public void close() throws IOException {
    jvm.close();
    Files.deleteIfExists(file);
  }
}
