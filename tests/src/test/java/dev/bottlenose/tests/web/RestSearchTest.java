package dev.bottlenose.tests.web;

import dev.bottlenose.bus.Addresses;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bottlenose.consultant.bus.DaemonProtocol;
import dev.bottlenose.tests.harness.Bus;
import dev.bottlenose.tests.harness.TargetJvm;
import dev.bottlenose.tests.harness.TargetJvm.Jdk;
import dev.bottlenose.tests.workloads.HotMethodWorkload;
import dev.bottlenose.web.cluster.Daemons;
import dev.bottlenose.web.service.WebService;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The REST API against a real target: the service (in this JVM, a cluster member) spawns a daemon for the
 * pid, a search started over REST finds the CPU-hot method, its live events arrive on the WebSocket, it is
 * stopped, saved (the WebSocket says so), listed and exported as JSON, DOT and SVG, its finding's flame graph keeps
 * the stacks through the hot method, and the target holds no instrumentation after.
 */
class RestSearchTest {
  private static final String BURN = "/Code/dev.bottlenose.tests.workloads/HotMethodWorkload/burn()J";
  private final HttpClient http = HttpClient.newHttpClient();
  private int port;

  @Test
  void aSearchStartedOverRestIsFollowedStoppedSavedAndExported() throws Exception {
    Path data = Files.createTempDirectory("bottlenose-rest-searches-");
    try (Bus bus = Bus.join(); TargetJvm target = TargetJvm.start(Jdk.JDK17, HotMethodWorkload.class);
        Daemons daemons = new Daemons(bus.vertx(), Path.of(System.getProperty("bottlenose.daemon.jar")), bus.secret())) {
      WebService service = WebService.start(bus.vertx(), daemons, new WebService.Options("127.0.0.1", 0, null, data))
          .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      port = service.port();
      try {
        HttpResponse<String> attached = post("/api/jvms", new JsonObject().put("pid", target.pid()));
        assertThat(attached.statusCode()).as(attached.body()).isEqualTo(201);
        String daemonId = new JsonObject(attached.body()).getString("daemonId");
        JsonObject jvms = get("/api/jvms");
        assertThat(jvms.getJsonArray("jvms").stream().map(o -> ((JsonObject) o).getString("daemonId"))).contains(daemonId);

        HttpResponse<String> started = post("/api/searches", new JsonObject().put("daemons", new JsonArray().add(daemonId))
            .put("budget", 0.5).put("maxTimeSeconds", 150).put("settings", new JsonObject()
                .put("search.sampling_interval_seconds", "0.5").put("search.min_observation_seconds", "2")
                .put("search.sufficient_seconds", "3").put("cpu_bound.threshold", SearchCliTest.CPU_THRESHOLD).put("search.max_active_experiments", "1000")));
        assertThat(started.statusCode()).as(started.body()).isEqualTo(201);
        String searchId = new JsonObject(started.body()).getString("searchId");
        List<JsonObject> live = subscribe("search:" + searchId);

        await("cpu_bound true at " + BURN).atMost(Duration.ofSeconds(150)).pollInterval(Duration.ofSeconds(1))
            .until(() -> trueAt(get("/api/searches/" + searchId).getJsonObject("graph")));
        assertThat(get("/api/searches/" + searchId).getBoolean("running")).isTrue();
        HttpResponse<String> stop = post("/api/searches/" + searchId + "/stop", new JsonObject());
        assertThat(stop.statusCode()).as(stop.body()).isEqualTo(200);
        await("saved").atMost(Duration.ofSeconds(60)).until(() -> Files.exists(data.resolve(searchId + ".json"))
            && get("/api/searches").getJsonArray("searches").stream().map(o -> (JsonObject) o)
                .anyMatch(s -> s.getString("searchId").equals(searchId) && !s.getBoolean("running")));

        assertThat(live).anyMatch(e -> e.getJsonObject("event") != null && "nodeChanged".equals(e.getJsonObject("event").getString("type")));
        assertThat(live).anyMatch(e -> e.getJsonObject("event") != null && "searchEnded".equals(e.getJsonObject("event").getString("type")));
        // The page reads the findings again on searchSaved: by then they come from the file (with a lock's holders).
        await("searchSaved").atMost(Duration.ofSeconds(10)).until(() -> live.stream().map(e -> e.getJsonObject("event"))
            .anyMatch(e -> e != null && "searchSaved".equals(e.getString("type")) && e.getBoolean("saved")));
        assertThat(live.stream().map(e -> e.getJsonObject("event")).filter(e -> e != null).map(e -> e.getString("type")).toList())
            .as("saved after it ended").containsSubsequence("searchEnded", "searchSaved");
        assertThat(get("/api/searches/" + searchId + "/findings").getBoolean("saved")).isTrue();
        assertThat(post("/api/searches/" + searchId + "/stop", new JsonObject()).statusCode()).isEqualTo(409);

        String json = text("/api/searches/" + searchId + "/export?format=json");
        assertThat(new JsonObject(json).getString("format")).isEqualTo("bottlenose-search/1");
        assertThat(json).contains(BURN);
        assertThat(text("/api/searches/" + searchId + "/export?format=dot")).startsWith("digraph shg").contains("burn()J");
        assertThat(text("/api/searches/" + searchId + "/export?format=svg")).contains("<svg").contains("burn()J");
        JsonArray findings = get("/api/searches/" + searchId + "/findings").getJsonArray("findings");
        assertThat(findings.stream().map(o -> ((JsonObject) o).getJsonArray("focus").encode())).as(findings.encodePrettily())
            .anyMatch(f -> f.contains(BURN));
        flameGraphsThroughTheFinding(searchId, daemonId, findings);
        JsonArray status = get("/api/jvms").getJsonArray("jvms").stream().map(o -> (JsonObject) o)
            .filter(j -> j.getString("daemonId").equals(daemonId)).findFirst().orElseThrow().getJsonArray("status");
        assertThat(status.stream().map(o -> (JsonObject) o)).anyMatch(s -> s.getString("family").equals("cpu_bound") && s.getString("state").equals("true")
            && s.getString("unit").equals("s per second"));

        JsonObject ledger = bus.request(Addresses.ledger(daemonId), new JsonObject());
        assertThat(ledger.getJsonArray("entries")).as("probes left in the target").isEmpty();
        assertThat(ledger.getJsonArray("sources")).as("sources left in the target").isEmpty();
      } finally {
        service.close().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
      }
    }
  }

  /**
   * The finding at burn() names its flame graph: the CPU stacks through burn(). The saved search's stacks through it
   * hold only stacks through it, no more samples than all its stacks; a Java name is resolved by the JVM's daemon
   * (as for a plot) to the same code; the JVM's live stacks filter alike; code no stack reaches leaves an empty tree.
   */
  private void flameGraphsThroughTheFinding(String searchId, String daemonId, JsonArray findings) throws Exception {
    JsonObject flame = findings.stream().map(o -> (JsonObject) o)
        .filter(f -> f.getJsonArray("focus").contains(BURN) && "cpu_bound".equals(f.getString("hypothesis")))
        .findFirst().orElseThrow(() -> new AssertionError(findings.encodePrettily())).getJsonObject("flame");
    assertThat(flame.getString("graph")).isEqualTo("cpu");
    assertThat(flame.getString("through")).isEqualTo(BURN);
    assertThat(flame.getString("text"))
        .isEqualTo("CPU samples through dev.bottlenose.tests.workloads.HotMethodWorkload.burn()");
    String stacks = "/api/searches/" + searchId + "/stacks?graph=cpu";
    JsonObject all = get(stacks);
    JsonObject through = get(stacks + "&through=" + encode(flame.getString("through")));
    assertThat(through.getString("through")).isEqualTo(BURN);
    assertThat(through.getLong("samples")).isPositive().isLessThanOrEqualTo(all.getLong("samples"));
    assertOnlyStacksThrough(through, BURN);
    JsonObject named = get(stacks + "&through=" + encode("dev.bottlenose.tests.workloads.HotMethodWorkload::burn"));
    assertThat(named.getString("through")).as("resolved by the daemon").isEqualTo(BURN);
    assertThat(named.getJsonArray("frames")).isEqualTo(through.getJsonArray("frames"));
    JsonObject nowhere = get(stacks + "&through=" + encode("/Code/dev.bottlenose.tests.nowhere/Nothing/none()V"));
    assertThat(nowhere.getLong("samples")).isZero();
    assertThat(nowhere.getJsonArray("frames")).isEmpty();
    JsonObject live = get("/api/jvms/" + daemonId + "/stacks?graph=cpu&through=" + encode(BURN));
    assertThat(live.getLong("samples")).isPositive();
    assertOnlyStacksThrough(live, BURN);
    HttpResponse<String> unknown = send(stacks + "&through=" + encode("dev.bottlenose.tests.nowhere.Nothing::none"));
    assertThat(unknown.statusCode()).as(unknown.body()).isEqualTo(400);
    assertThat(new JsonObject(unknown.body()).getString("error")).startsWith("'through': no code matches");
    HttpResponse<String> threads = send("/api/jvms/" + daemonId + "/stacks?through=" + encode("/Threads/main"));
    assertThat(threads.statusCode()).as(threads.body()).isEqualTo(400);
    assertThat(new JsonObject(threads.body()).getString("error")).contains("names a package, a class or a method");
  }

  /** Every stack of {@code stacks} (from a root to a frame no other frame calls) passes through {@code method}. */
  private static void assertOnlyStacksThrough(JsonObject stacks, String method) {
    List<JsonObject> frames = stacks.getJsonArray("frames").stream().map(o -> (JsonObject) o).toList();
    java.util.Set<Integer> callers = new java.util.HashSet<>();
    frames.forEach(f -> callers.add(f.getInteger("parent")));
    for (int i = 0; i < frames.size(); i++) {
      if (callers.contains(i)) {
        continue;
      }
      boolean through = false;
      for (int at = i; at >= 0 && !through; at = frames.get(at).getInteger("parent")) {
        through = frames.get(at).getString("method").equals(method);
      }
      assertThat(through).as("stack ending in frame %d passes through %s: %s", i, method, stacks.encode()).isTrue();
    }
  }

  private static String encode(String text) {
    return java.net.URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  private boolean trueAt(JsonObject graph) {
    return graph.getJsonArray("nodes").stream().map(o -> (JsonObject) o).anyMatch(n -> "true".equals(n.getString("state"))
        && "cpu_bound".equals(n.getString("hypothesis")) && n.getJsonArray("focus").contains(BURN));
  }

  private List<JsonObject> subscribe(String topic) throws Exception {
    List<JsonObject> received = new CopyOnWriteArrayList<>();
    WebSocket ws = http.newWebSocketBuilder().buildAsync(URI.create("ws://127.0.0.1:" + port + "/api/live"), new WebSocket.Listener() {
      private final StringBuilder text = new StringBuilder();

      @Override
      public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
        text.append(data);
        if (last) {
          received.add(new JsonObject(text.toString()));
          text.setLength(0);
        }
        socket.request(1);
        return null;
      }
    }).get(10, TimeUnit.SECONDS);
    ws.sendText(new JsonObject().put("op", "subscribe").put("topic", topic).encode(), true).get(5, TimeUnit.SECONDS);
    return received;
  }

  private JsonObject get(String path) throws Exception {
    return new JsonObject(text(path));
  }

  private String text(String path) throws Exception {
    HttpResponse<String> r = send(path);
    assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
    return r.body();
  }

  private HttpResponse<String> send(String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).GET().build(),
        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  private HttpResponse<String> post(String path, JsonObject body) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body.encode(), StandardCharsets.UTF_8)).build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }
}
