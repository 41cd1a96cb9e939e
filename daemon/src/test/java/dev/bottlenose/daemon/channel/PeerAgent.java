package dev.bottlenose.daemon.channel;

import dev.bottlenose.agent.wire.Frames;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import jdk.jfr.Recording;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A test-only agent: a real socket that speaks the channel protocol from PROTOCOL.md with a small fixed
 * resource tree and counting probes. Requests are answered on their own threads, so out of order. Like the
 * real agent it names a JFR repository in its hello: this JVM's, with a real recording running, so the
 * daemon reads real events (of this JVM) for the sources it watches.
 */
public final class PeerAgent implements AutoCloseable {
  public static final String STEP = "/Code/com.acme/Sim/step()V";
  public static final String RUN = "/Code/com.acme/Sim/run()V";

  private static Recording recording;

  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;
  private final Map<Long, Map<String, Object>> probes = new ConcurrentHashMap<>();
  private final Map<Long, Map<String, Object>> sources = new ConcurrentHashMap<>();
  private final AtomicLong probeIds = new AtomicLong();
  private final AtomicLong reads = new AtomicLong();
  private final List<String> ops = new CopyOnWriteArrayList<>();
  private final Map<String, String> refusals = new ConcurrentHashMap<>();

  private PeerAgent(Socket socket) throws IOException {
    this.socket = socket;
    this.in = new BufferedInputStream(socket.getInputStream());
    this.out = new BufferedOutputStream(socket.getOutputStream());
  }

  /** Connects to the daemon and says hello with {@code token} as the process {@code pid}. */
  public static PeerAgent connect(int port, String token, long pid) throws IOException {
    return connect(port, token, pid, repository());
  }

  /** As {@link #connect(int, String, long)}, naming {@code jfrRepository} (null: none) in the hello. */
  public static PeerAgent connect(int port, String token, long pid, String jfrRepository) throws IOException {
    PeerAgent peer = new PeerAgent(new Socket(InetAddress.getLoopbackAddress(), port));
    Map<String, Object> hello = new LinkedHashMap<>();
    hello.put("event", "hello");
    hello.put("token", token);
    hello.put("pid", pid);
    hello.put("javaVersion", "17.0.15");
    hello.put("vmName", "PeerVM");
    hello.put("mainClass", "com.acme.Sim");
    hello.put("retransformSupported", true);
    hello.put("agentVersion", "test");
    hello.put("loadedBy", "agentmain");
    hello.put("calibration", Map.of("virtualCallNanos", 2L, "allocationNanos", 20L, "samplePeriodNanos", 20_000_000L));
    if (jfrRepository != null) {
      hello.put("jfrRepository", jfrRepository);
    }
    peer.send(hello);
    Thread t = new Thread(peer::serve, "peer-agent");
    t.setDaemon(true);
    t.start();
    return peer;
  }

  private static synchronized String repository() {
    if (recording == null) {
      recording = new Recording();
      recording.setName("peer-agent");
      recording.enable("jdk.ExecutionSample").withPeriod(java.time.Duration.ofMillis(20)).withStackTrace();
      recording.enable("jdk.Flush");
      recording.start();
    }
    return System.getProperty("jdk.jfr.repository");
  }

  /** The ops received so far, in arrival order. */
  public List<String> ops() {
    return ops;
  }

  /** From now on refuses to insert into {@code method}: {@code error} is the code word, a space, the message. */
  public void refuse(String method, String error) {
    refusals.put(method, error);
  }

  public Map<Long, Map<String, Object>> probes() {
    return probes;
  }

  public void sendEvent(Map<String, Object> event) throws IOException {
    send(event);
  }

  private void serve() {
    try {
      while (true) {
        Map<String, Object> request = Frames.read(in);
        ops.add(String.valueOf(request.get("op")));
        Thread t = new Thread(() -> answer(request), "peer-answer");
        t.setDaemon(true);
        t.start();
      }
    } catch (IOException e) {
      close();
    }
  }

  private void answer(Map<String, Object> request) {
    try {
      Thread.sleep(ThreadLocalRandom.current().nextInt(3));
      Map<String, Object> response = new LinkedHashMap<>();
      response.put("re", request.get("id"));
      response.put("ok", true);
      String error = handle(request, response);
      if (error != null) {
        response.put("ok", false);
        response.put("code", error.substring(0, error.indexOf(' ')));
        response.put("error", error.substring(error.indexOf(' ') + 1));
      }
      send(response);
      if ("bye".equals(request.get("op"))) {
        close();
      }
    } catch (IOException | InterruptedException e) {
      close();
    }
  }

  private String handle(Map<String, Object> request, Map<String, Object> response) {
    switch (String.valueOf(request.get("op"))) {
      case "ping":
        response.put("nanoTime", System.nanoTime());
        return null;
      case "resources":
        return resources(String.valueOf(request.get("path")), response);
      case "insert":
        return insert(request, response);
      case "insertAll":
        return insertAll(request, response);
      case "remove":
        return remove(((Number) request.get("probeId")).longValue(), response);
      case "removeMany":
        return removeMany(request, response);
      case "read":
        return read(response);
      case "ledger":
        response.put("entries", new ArrayList<>(probes.values()));
        response.put("sources", new ArrayList<>(sources.values()));
        return null;
      case "watch":
        return watch(request, response);
      case "unwatch":
        return sources.remove(((Number) request.get("sourceId")).longValue()) == null
            ? "NO_SUCH_SOURCE no source " + request.get("sourceId") : null;
      case "status":
        response.put("suppressedErrors", 0L);
        response.put("probes", (long) probes.size());
        return null;
      case "bye":
        probes.clear();
        return null;
      default:
        return "UNKNOWN_OP unknown op " + request.get("op");
    }
  }

  private static String resources(String path, Map<String, Object> response) {
    List<Map<String, Object>> all = List.of(resource("/Code", "root"), resource("/Code/com.acme", "package"),
        resource("/Code/com.acme/Sim", "class"), resource(RUN, "method"), resource(STEP, "method"),
        resource("/Threads", "root"), resource("/Threads/main", "thread"));
    List<Map<String, Object>> found = new ArrayList<>();
    for (Map<String, Object> r : all) {
      String p = (String) r.get("path");
      if (path.equals("/") || p.equals(path) || p.startsWith(path + "/")) {
        found.add(r);
      }
    }
    if (found.isEmpty()) {
      return "NO_SUCH_RESOURCE no resource " + path;
    }
    response.put("resources", found);
    return null;
  }

  private static Map<String, Object> resource(String path, String kind) {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("path", path);
    r.put("kind", kind);
    r.put("attributes", Map.of("seen", "yes"));
    return r;
  }

  private String insert(Map<String, Object> request, Map<String, Object> response) {
    String method = String.valueOf(request.get("method"));
    if (!method.equals(STEP) && !method.equals(RUN)) {
      return "NO_SUCH_METHOD no method " + method + " in the target";
    }
    if (refusals.containsKey(method)) {
      return refusals.get(method);
    }
    long id = probeIds.incrementAndGet();
    Map<String, Object> entry = new LinkedHashMap<>();
    entry.put("probeId", id);
    entry.put("method", method);
    entry.put("kind", request.get("kind"));
    entry.put("requester", "peer-session");
    entry.put("sinceMillis", System.currentTimeMillis());
    probes.put(id, entry);
    response.put("probeId", id);
    response.put("method", method);
    response.put("retransformNanos", 1_000_000L);
    return null;
  }

  @SuppressWarnings("unchecked")
  private String insertAll(Map<String, Object> request, Map<String, Object> response) {
    List<Object> results = new ArrayList<>();
    for (Map<String, Object> item : (List<Map<String, Object>>) request.get("probes")) {
      Map<String, Object> result = new LinkedHashMap<>();
      String error = insert(item, result);
      results.add(error == null ? result : Map.of("error", Map.of("code", error.substring(0, error.indexOf(' ')),
          "message", error.substring(error.indexOf(' ') + 1))));
    }
    response.put("results", results);
    return null;
  }

  @SuppressWarnings("unchecked")
  private String removeMany(Map<String, Object> request, Map<String, Object> response) {
    List<Object> removed = new ArrayList<>();
    List<Object> failures = new ArrayList<>();
    for (Object id : (List<Object>) request.get("probeIds")) {
      Map<String, Object> result = new LinkedHashMap<>();
      String error = remove(((Number) id).longValue(), result);
      if (error == null) {
        removed.add(result);
      } else {
        failures.add(Map.of("probeId", id, "code", error.substring(0, error.indexOf(' ')),
            "message", error.substring(error.indexOf(' ') + 1)));
      }
    }
    response.put("removed", removed);
    response.put("failures", failures);
    return null;
  }

  @SuppressWarnings("unchecked")
  private String watch(Map<String, Object> request, Map<String, Object> response) {
    Map<String, Object> source = (Map<String, Object>) request.get("source");
    if (!"cpu_sample".equals(source.get("event"))) {
      return "BAD_REQUEST unknown event '" + source.get("event") + "' in source (known: cpu_sample)";
    }
    long id = probeIds.incrementAndGet();
    sources.put(id, new LinkedHashMap<>(Map.of("sourceId", id, "source", source, "requester", "peer-session",
        "sinceMillis", System.currentTimeMillis())));
    response.put("sourceId", id);
    return null;
  }

  private String remove(long id, Map<String, Object> response) {
    if (probes.remove(id) == null) {
      return "NO_SUCH_PROBE no probe " + id;
    }
    response.put("probeId", id);
    response.put("className", "com.acme.Sim");
    response.put("retransformNanos", 500_000L);
    response.put("classRestored", probes.isEmpty());
    return null;
  }

  private String read(Map<String, Object> response) {
    long n = reads.incrementAndGet();
    List<Map<String, Object>> readings = new ArrayList<>();
    for (Long id : probes.keySet()) {
      readings.add(Map.of("probeId", id, "kind", probes.get(id).get("kind"), "count", n * 100, "nanos", 0L));
    }
    response.put("nanoTime", System.nanoTime());
    response.put("readings", readings);
    List<Map<String, Object>> totals = new ArrayList<>();
    for (Long id : sources.keySet()) {
      totals.add(Map.of("sourceId", id, "count", n * 3, "nanos", n * 60_000_000, "bytes", 0L));
    }
    response.put("sources", totals);
    response.put("cost", Map.of("executions", n * 100, "probeNanos", n * 1000, "retransformNanos", 0L));
    response.put("agentCpuNanos", n * 10_000);
    response.put("processCpuNanos", n * 100_000_000);
    response.put("vm", Map.of("gcCount", n));
    return null;
  }

  private void send(Map<String, Object> frame) throws IOException {
    synchronized (out) {
      Frames.write(out, frame);
    }
  }

  /** Closes the socket, as an agent whose JVM exits would. */
  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException e) {
      // closing twice is fine
    }
  }
}
