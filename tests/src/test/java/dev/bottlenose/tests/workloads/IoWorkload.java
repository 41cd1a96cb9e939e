package dev.bottlenose.tests.workloads;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A planted I/O bottleneck: a fetcher thread reads, in {@link #fetch}, from a socket whose peer (a slow
 * server thread in the same program, on 127.0.0.1) answers 64 bytes every 5 ms, so the fetcher is blocked
 * in socket reads nearly all the time while the program uses little CPU. Prints {@code ready} once started,
 * then {@code serving port=<the server's port>}, and runs until standard input says {@code exit} (or closes).
 */
public final class IoWorkload {
  static final int ANSWER_BYTES = 8192;
  static volatile boolean running = true;
  static volatile long received;

  public static void main(String[] args) throws Exception {
    ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
    start(() -> serve(server), "slow-server");
    Socket client = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
    start(() -> fetchAll(client), "fetcher");
    System.out.println("ready pid=" + ProcessHandle.current().pid());
    System.out.println("serving port=" + server.getLocalPort());
    System.out.flush();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null && !line.trim().equals("exit"); line = in.readLine()) {
        // only "exit" is a command
      }
    }
    running = false;
  }

  private static void start(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    t.start();
  }

  private static void serve(ServerSocket server) {
    byte[] answer = new byte[ANSWER_BYTES];
    try (Socket s = server.accept(); OutputStream out = s.getOutputStream()) {
      while (running) {
        Thread.sleep(5);
        out.write(answer);
        out.flush();
      }
    } catch (IOException | InterruptedException e) {
      running = false;
    }
  }

  private static void fetchAll(Socket client) {
    byte[] buffer = new byte[ANSWER_BYTES];
    try (InputStream in = client.getInputStream()) {
      while (running) {
        received += fetch(in, buffer);
      }
    } catch (IOException e) {
      running = false;
    }
  }

  /** One blocking read of the slow server's next answer. */
  static int fetch(InputStream in, byte[] buffer) throws IOException {
    return Math.max(0, in.readNBytes(buffer, 0, buffer.length));
  }
}
