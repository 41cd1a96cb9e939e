package dev.bottlenose.agent;

import dev.bottlenose.agent.wire.Jfr;
import dev.bottlenose.daemon.jfr.RepositoryReader;
import dev.bottlenose.agent.wire.Frames;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The daemon end of the local channel, as a test sees it: a real listening socket on loopback. Like the real
 * daemon, each channel reads the target's JFR repository and sends the agent discovery's digests.
 */
final class FakeDaemon implements AutoCloseable {
  final String token = UUID.randomUUID().toString().replace("-", "");
  private final ServerSocket server;

  FakeDaemon() throws IOException {
    server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
  }

  String options(long heartbeatMillis, String requester) {
    return "port=" + server.getLocalPort() + ",token=" + token + ",heartbeat=" + heartbeatMillis + ",requester=" + requester;
  }

  /** Waits for the agent to connect and reads its hello; then reads the target's JFR as a daemon does. */
  Channel accept(Duration timeout) throws IOException {
    server.setSoTimeout((int) timeout.toMillis());
    return new Channel(server.accept(), true);
  }

  /** As {@link #accept}, but sends nothing unasked (no JFR digests): a daemon that falls silent. */
  Channel acceptSilent(Duration timeout) throws IOException {
    server.setSoTimeout((int) timeout.toMillis());
    return new Channel(server.accept(), false);
  }

  @Override
  public void close() throws IOException {
    server.close();
  }

  /** One agent connection: requests with ids, responses matched by {@code re}, events collected. */
  static final class Channel implements AutoCloseable {
    final Map<String, Object> hello;
    final List<Map<String, Object>> changes = new CopyOnWriteArrayList<>();
    private final Socket socket;
    private final OutputStream out;
    private final AtomicLong ids = new AtomicLong();
    private final Map<Object, CompletableFuture<Map<String, Object>>> pending = new ConcurrentHashMap<>();
    private final BlockingQueue<Map<String, Object>> unmatched = new LinkedBlockingQueue<>();
    private final CompletableFuture<String> closed = new CompletableFuture<>();
    private final RepositoryReader jfr;
    private final java.util.Set<Object> digestIds = ConcurrentHashMap.newKeySet();

    Channel(Socket socket, boolean readJfr) throws IOException {
      this.socket = socket;
      socket.setSoTimeout(20_000);
      InputStream in = new BufferedInputStream(socket.getInputStream());
      this.out = new BufferedOutputStream(socket.getOutputStream());
      this.hello = Frames.read(in);
      socket.setSoTimeout(0);
      this.jfr = readJfr ? readJfr() : null;
      Thread reader = new Thread(() -> read(in), "fake-daemon-reader");
      reader.setDaemon(true);
      reader.start();
    }

    private RepositoryReader readJfr() throws IOException {
      Object repository = hello.get("jfrRepository");
      if (!(repository instanceof String path)) {
        return null;
      }
      RepositoryReader reader = new RepositoryReader(java.nio.file.Path.of(path), ((Number) hello.get("pid")).longValue(),
          20_000_000L, this::sendDigest);
      reader.start();
      return reader;
    }

    private void sendDigest(Jfr digest) {
      Map<String, Object> m = new LinkedHashMap<>(digest.toMap());
      long id = ids.incrementAndGet();
      digestIds.add(id);
      m.put("id", id);
      m.put("op", Jfr.OP);
      try {
        synchronized (out) {
          Frames.write(out, m);
        }
      } catch (IOException e) {
        // the agent has gone: the test sees that on its own requests
      }
    }

    private void read(InputStream in) {
      try {
        while (true) {
          Map<String, Object> frame = Frames.read(in);
          if ("changes".equals(frame.get("event"))) {
            changes.add(frame);
          } else if (frame.get("re") != null && pending.containsKey(frame.get("re"))) {
            pending.remove(frame.get("re")).complete(frame);
          } else if (frame.get("re") == null || !digestIds.remove(frame.get("re"))) {
            unmatched.add(frame);
          }
        }
      } catch (EOFException e) {
        closed.complete("EOF");
      } catch (IOException e) {
        closed.complete(e.toString());
      }
    }

    /** Sends {@code op} with arguments given as name, value pairs; returns the response. */
    Map<String, Object> request(String op, Object... arguments) throws Exception {
      Map<String, Object> m = new LinkedHashMap<>();
      long id = ids.incrementAndGet();
      m.put("id", id);
      m.put("op", op);
      for (int i = 0; i < arguments.length; i += 2) {
        m.put((String) arguments[i], arguments[i + 1]);
      }
      return send(id, m);
    }

    /** Sends a raw frame; returns the response with {@code re} equal to {@code re}. */
    Map<String, Object> send(Object re, Map<String, Object> frame) throws Exception {
      CompletableFuture<Map<String, Object>> answer = new CompletableFuture<>();
      if (re != null) {
        pending.put(re, answer);
      }
      synchronized (out) {
        Frames.write(out, frame);
      }
      return re != null ? answer.get(20, TimeUnit.SECONDS) : unmatched.poll(20, TimeUnit.SECONDS);
    }

    /** Sends a frame of raw bytes (which need not be JSON); returns the next response not matched by id. */
    Map<String, Object> sendRaw(byte[] body) throws Exception {
      synchronized (out) {
        java.io.DataOutputStream data = new java.io.DataOutputStream(out);
        data.writeInt(body.length);
        data.write(body);
        data.flush();
      }
      return unmatched.poll(20, TimeUnit.SECONDS);
    }

    /** How the agent ended the connection, waiting up to {@code timeout}; null if it is still open. */
    String awaitClosedByAgent(Duration timeout) throws InterruptedException {
      try {
        return closed.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
        return null;
      }
    }

    @Override
    public void close() throws IOException {
      if (jfr != null) {
        jfr.close();
      }
      socket.close();
    }
  }
}
