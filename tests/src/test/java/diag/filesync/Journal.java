package diag.filesync;

import diag.Run;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Planted: I/O blocking. Two writer threads append 512-byte records to a journal file each and sync the
 * file descriptor after every record ({@code FileDescriptor.sync}), as a naive write-ahead log does. Known
 * answer: io_wait at {@code diag.filesync.Journal.append} (or the journal files under /IO).
 */
public final class Journal {
  public static void main(String[] args) throws Exception {
    List<Run.Worker> workers = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      Path file = Files.createTempFile("diag-journal-" + i + "-", ".log");
      file.toFile().deleteOnExit();
      workers.add(new Run.Worker("writer-" + i, () -> write(file)));
    }
    Run.workers(workers);
  }

  static void write(Path file) throws IOException {
    byte[] record = new byte[512];
    long n = 0;
    try (FileOutputStream out = new FileOutputStream(file.toFile())) {
      while (Run.running()) {
        record[(int) (n++ & 511)]++;
        append(out, record);
        if (out.getChannel().position() > 32 << 20) {
          out.getChannel().truncate(0);
        }
      }
    }
  }

  static void append(FileOutputStream out, byte[] record) throws IOException {
    out.write(record);
    out.getFD().sync();
  }
}
