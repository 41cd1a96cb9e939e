package diag.smallreads;

import diag.Run;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;

/**
 * Planted: many small I/O operations. A local server streams text lines; the client reads them one byte
 * at a time from the socket's unbuffered stream ({@code readLine} over {@code InputStream.read()}), so
 * every byte is a read system call. Known answer: io_wait or small_io_ops at
 * {@code diag.smallreads.LineClient.readLine} (the reading thread, {@code client}).
 */
public final class LineClient {
  static volatile long sink;

  public static void main(String[] args) throws Exception {
    ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
    Run.workers(List.of(
        new Run.Worker("server", () -> serve(server)),
        new Run.Worker("client", () -> read(server.getLocalPort()))));
  }

  static void serve(ServerSocket server) throws Exception {
    try (Socket s = server.accept(); OutputStream out = s.getOutputStream()) {
      byte[] line = "GET /orders/12345 HTTP/1.1 status=200 bytes=512\n".repeat(64).getBytes();
      while (Run.running()) {
        out.write(line);
      }
    }
  }

  static void read(int port) throws Exception {
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port); InputStream in = s.getInputStream()) {
      StringBuilder b = new StringBuilder();
      while (Run.running()) {
        sink += readLine(in, b);
      }
    }
  }

  static int readLine(InputStream in, StringBuilder b) throws Exception {
    b.setLength(0);
    for (int c = in.read(); c >= 0 && c != '\n'; c = in.read()) {
      b.append((char) c);
    }
    return b.length();
  }
}
