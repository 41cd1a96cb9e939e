package dev.bottlenose.agent.wire;

import dev.bottlenose.model.json.Json;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Reads and writes the channel's frames: 4-byte big-endian length, then that many bytes of UTF-8 JSON. */
public final class Frames {
  /** The largest frame either side accepts. */
  public static final int MAX_FRAME = 16 << 20;

  /** Writes one JSON object as a frame and flushes. Callers serialise writers on the stream themselves. */
  public static void write(OutputStream out, Map<String, ?> message) throws IOException {
    byte[] body = Json.write(message).getBytes(StandardCharsets.UTF_8);
    if (body.length > MAX_FRAME) {
      throw new IOException("frame of " + body.length + " bytes is over the limit of " + MAX_FRAME);
    }
    DataOutputStream data = new DataOutputStream(out);
    data.writeInt(body.length);
    data.write(body);
    data.flush();
  }

  /** Reads one frame; throws {@link EOFException} at a clean end of stream. */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> read(InputStream in) throws IOException {
    DataInputStream data = new DataInputStream(in);
    int length = data.readInt();
    if (length <= 0 || length > MAX_FRAME) {
      throw new IOException("bad frame length " + length);
    }
    byte[] body = new byte[length];
    data.readFully(body);
    Object value = Json.parse(new String(body, StandardCharsets.UTF_8));
    if (!(value instanceof Map)) {
      throw new IOException("frame is not a JSON object");
    }
    return (Map<String, Object>) value;
  }

  private Frames() {}
}
