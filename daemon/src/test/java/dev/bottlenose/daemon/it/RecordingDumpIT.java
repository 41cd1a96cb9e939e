package dev.bottlenose.daemon.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.daemon.jfr.RecordingDump;
import dev.bottlenose.daemon.session.SessionException;
import dev.bottlenose.daemon.session.SessionOptions;
import dev.bottlenose.daemon.session.TargetSession;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The agent's JFR recording dumped from a real target ({@code dump}) and read by the daemon: a JFR file the JDK's own
 * reader parses, with the execution samples of the target's worker thread, and nothing of it left on disk.
 */
class RecordingDumpIT {
  private static Path tmp;
  private static TargetJvm target;
  private static TargetSession session;

  @BeforeAll
  static void attach() throws Exception {
    // the target's own temporary directory, where the agent makes its dumps' private directories
    tmp = Files.createTempDirectory("bottlenose-dump-it");
    target = TargetJvm.start("-Djava.io.tmpdir=" + tmp);
    session = TargetSession.attach(target.pid(), SessionOptions.defaults().withInterval(Duration.ofMillis(200)),
        System.err);
  }

  @AfterAll
  static void close() throws Exception {
    session.close();
    target.close();
  }

  @Test
  void theDumpIsAJfrFileWithTheTargetsExecutionSamplesAndIsDeletedOnceRead() throws Exception {
    // JFR samples the workload at rest's period: on a loaded machine the first dumps may hold none of its samples yet
    long deadline = System.currentTimeMillis() + 30_000;
    RecordingDump dump;
    List<RecordedEvent> samples;
    do {
      Thread.sleep(1_000);
      dump = session.recording(80L * 1024 * 1024);
      assertThat(dump.bytes().length).isGreaterThan(1000);
      assertThat(dump.recordingStartMillis()).isPositive().isLessThanOrEqualTo(dump.dumpedAtMillis());
      assertThat(leftInTmp()).as("the dump and its directory are deleted once read").isEmpty();
      samples = workerSamples(dump);
    } while (samples.isEmpty() && System.currentTimeMillis() < deadline);

    assertThat(samples).as("execution samples of the workload's thread").anySatisfy(e ->
        assertThat(e.getStackTrace().getFrames()).anySatisfy(fr ->
            assertThat(fr.getMethod().getType().getName()).isEqualTo(TargetJvm.MAIN)));
    long dumpedAt = dump.dumpedAtMillis();
    assertThat(samples).allSatisfy(e -> assertThat(e.getEndTime().toEpochMilli()).isLessThanOrEqualTo(dumpedAt + 1_000));
  }

  /** The dump's execution samples of the workload's thread, read with the JDK's own reader. */
  private static List<RecordedEvent> workerSamples(RecordingDump dump) throws Exception {
    Path file = Files.createTempFile("bottlenose-dump-it", ".jfr");
    try {
      Files.write(file, dump.bytes());
      List<RecordedEvent> samples = new ArrayList<>();
      try (RecordingFile f = new RecordingFile(file)) {
        while (f.hasMoreEvents()) {
          RecordedEvent e = f.readEvent();
          if (e.getEventType().getName().equals("jdk.ExecutionSample")
              && "it-worker".equals(e.getThread("sampledThread").getJavaName())) {
            samples.add(e);
          }
        }
      }
      return samples;
    } finally {
      Files.deleteIfExists(file);
    }
  }

  @Test
  void aRecordingLargerThanTheCapIsRefusedAndDeleted() throws Exception {
    Thread.sleep(500);
    SessionException refused = null;
    try {
      session.recording(100);
    } catch (SessionException e) {
      refused = e;
    }
    assertThat(refused).isNotNull();
    assertThat(refused.getMessage()).contains("more than the 100 bytes a daemon sends");
    assertThat(leftInTmp()).isEmpty();
    assertThat(session.recording(80L * 1024 * 1024).bytes()).as("the session dumps again").isNotEmpty();
  }

  private static List<Path> leftInTmp() throws Exception {
    try (Stream<Path> s = Files.list(tmp)) {
      return s.filter(p -> p.getFileName().toString().startsWith("bottlenose-jfr-")).toList();
    }
  }
}
