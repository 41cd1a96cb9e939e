package dev.bottlenose.agent.wire;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The answer to {@code dump}: the file the recording was written to ({@code path}, absolute, in a directory of its
 * own that only the target's user may enter), its size in bytes, when the recording started and when it was dumped
 * (epoch milliseconds; the file holds the last two minutes before {@code dumpedAtMillis} at most).
 */
public record DumpReply(String path, long bytes, long recordingStartMillis, long dumpedAtMillis) {
  public DumpReply {
    if (path == null || path.isEmpty()) {
      throw new WireException("path", path, "missing path (the dumped file)");
    }
    if (bytes < 0) {
      throw new WireException("bytes", bytes, "bytes must be 0 or more, is " + bytes);
    }
  }

  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("path", path);
    m.put("bytes", bytes);
    m.put("recordingStartMillis", recordingStartMillis);
    m.put("dumpedAtMillis", dumpedAtMillis);
    return m;
  }

  public static DumpReply fromMap(Map<String, ?> m) {
    return new DumpReply(Fields.text(m, "path"), Fields.number(m, "bytes"), Fields.number(m, "recordingStartMillis", 0),
        Fields.number(m, "dumpedAtMillis", 0));
  }
}
