package diag.phases;

import diag.Run;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * Planted: phases. A batch job alternates 20 s of parsing (CPU in {@code parse}) with 20 s of writing
 * results with a forced flush after every 4 KiB (blocked in {@code FileChannel.force}). Known answer:
 * cpu_bound at {@code diag.phases.BatchJob.parse} or io_wait at {@code diag.phases.BatchJob.write}
 * (whichever phase the search sees long enough; either is right, a verdict must not span both).
 */
public final class BatchJob {
  static volatile long sink;
  static final long PHASE_NANOS = 20_000_000_000L;

  public static void main(String[] args) throws Exception {
    Path file = Files.createTempFile("diag-batch-", ".out");
    file.toFile().deleteOnExit();
    Run.workers(List.of(new Run.Worker("batch", () -> run(file))));
  }

  static void run(Path file) throws IOException {
    try (FileChannel out = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
      while (Run.running()) {
        long end = System.nanoTime() + PHASE_NANOS;
        while (Run.running() && System.nanoTime() < end) {
          sink += parse("id=42,price=1999,qty=3,sku=AB-7781,when=2026-11-26T10:00:00Z;".repeat(40));
        }
        end = System.nanoTime() + PHASE_NANOS;
        while (Run.running() && System.nanoTime() < end) {
          write(out);
        }
      }
    }
  }

  static long parse(String text) {
    long h = 0;
    int start = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == ',' || c == ';') {
        String field = text.substring(start, i);
        int eq = field.indexOf('=');
        h = h * 31 + field.substring(eq + 1).hashCode();
        start = i + 1;
      }
    }
    return h;
  }

  static void write(FileChannel out) throws IOException {
    ByteBuffer block = ByteBuffer.allocate(4096);
    while (block.hasRemaining()) {
      block.put((byte) 'x');
    }
    block.flip();
    out.write(block);
    out.force(false);
    if (out.position() > 64 << 20) {
      out.truncate(0);
    }
  }
}
