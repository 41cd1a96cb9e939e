package dev.bottlenose.agent.wire;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

/**
 * The exchange on a waiting agent's Unix-domain socket: the daemon writes one line, the agent option string an
 * attach would pass ({@code port=…,token=…,heartbeat=…,requester=…}), and the agent answers one line,
 * {@value #OK} or {@code error: <message>}, then closes. Lines are UTF-8, end with {@code \n} and hold at most
 * {@value #MAX_BYTES} bytes; each read and write has a deadline, so a silent peer cannot hold either end.
 */
public final class Handover {
  /** The longest line either end reads. */
  public static final int MAX_BYTES = 4096;
  /** The agent's answer when it took the options. */
  public static final String OK = "ok";
  /** How the agent's answer starts when it did not. */
  public static final String ERROR = "error: ";

  private Handover() {}

  /** {@code error: <message>}, the message on one line. */
  public static String error(String message) {
    return ERROR + String.valueOf(message).replaceAll("[\\r\\n]+", " ");
  }

  /**
   * Reads one line (without its {@code \n}) within {@code timeoutMillis}; null when the peer closes before
   * sending a byte, the rest when it closes after some. The channel is left non-blocking.
   */
  public static String readLine(SocketChannel channel, long timeoutMillis) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(MAX_BYTES + 1);
    long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
    channel.configureBlocking(false);
    try (Selector selector = Selector.open()) {
      channel.register(selector, SelectionKey.OP_READ);
      while (true) {
        int start = buffer.position();
        int read = channel.read(buffer);
        if (read < 0) {
          return buffer.position() == 0 ? null : text(buffer, buffer.position());
        }
        for (int i = start; i < buffer.position(); i++) {
          if (buffer.get(i) == '\n') {
            return text(buffer, i);
          }
        }
        if (!buffer.hasRemaining()) {
          throw new IOException("a line longer than " + MAX_BYTES + " bytes");
        }
        if (read == 0) {
          await(selector, deadline, timeoutMillis, "no line");
        }
      }
    }
  }

  /** Writes {@code line} and {@code \n} within {@code timeoutMillis}; the channel is left non-blocking. */
  public static void writeLine(SocketChannel channel, String line, long timeoutMillis) throws IOException {
    byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
    if (bytes.length > MAX_BYTES) {
      throw new IOException("a line longer than " + MAX_BYTES + " bytes");
    }
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
    channel.configureBlocking(false);
    try (Selector selector = Selector.open()) {
      channel.register(selector, SelectionKey.OP_WRITE);
      while (buffer.hasRemaining()) {
        if (channel.write(buffer) == 0) {
          await(selector, deadline, timeoutMillis, "could not write a line");
        }
      }
    }
  }

  private static void await(Selector selector, long deadline, long timeoutMillis, String what) throws IOException {
    long left = (deadline - System.nanoTime()) / 1_000_000;
    if (left <= 0) {
      throw new SocketTimeoutException(what + " within " + timeoutMillis + " ms");
    }
    selector.select(left);
    selector.selectedKeys().clear();
  }

  private static String text(ByteBuffer buffer, int end) {
    int length = end > 0 && buffer.get(end - 1) == '\r' ? end - 1 : end;
    return new String(buffer.array(), 0, length, StandardCharsets.UTF_8);
  }
}
