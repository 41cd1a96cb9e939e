package dev.bottlenose.tests.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bottlenose.bus.Addresses;
import dev.bottlenose.tests.harness.Bus;
import dev.bottlenose.tests.harness.DaemonProcess;
import dev.bottlenose.tests.harness.TargetJvm;
import dev.bottlenose.tests.harness.TargetJvm.Jdk;
import dev.bottlenose.tests.workloads.HotMethodWorkload;
import dev.bottlenose.web.cluster.Daemons;
import dev.bottlenose.web.service.WebService;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What the service starts in a real target through a real daemon: live plots and VM-vs-app views are limited
 * per client (8) and in all (32), and a refused one enables nothing on the daemon; a view no WebSocket watches
 * is removed from the daemon after the grace period, a watched one stays until its last subscriber left; running
 * searches are limited per client (2). One target and one daemon for the class; two services in this JVM (a
 * cluster member) share them: one with the default limits and grace period, one whose grace period is short.
 * Another client is another loopback address (127.0.0.2, …), written from on a socket bound to it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PlotLimitsTest {
  private static final String BURN = "/Code/dev.bottlenose.tests.workloads/HotMethodWorkload/burn()J";
  private static final Duration GRACE = Duration.ofSeconds(3);
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private Bus bus;
  private TargetJvm target;
  private DaemonProcess daemon;
  private Daemons daemons;
  /** The default limits and the default 30 s grace period. */
  private WebService limited;
  /** The default limits and a grace period of {@link #GRACE}. */
  private WebService brief;
  private final List<String> made = new ArrayList<>();
  private final List<WebSocket> sockets = new ArrayList<>();

  @BeforeAll
  void start() throws Exception {
    bus = Bus.join();
    target = TargetJvm.start(Jdk.JDK17, HotMethodWorkload.class);
    daemon = DaemonProcess.attach(target.pid(), bus.secret(), "--interval", "500ms");
    bus.awaitRunning(daemon);
    daemons = new Daemons(bus.vertx(), DaemonProcess.daemonJar(), bus.secret());
    limited = WebService.start(bus.vertx(), daemons, new WebService.Options("127.0.0.1", 0, null,
        Files.createTempDirectory("bottlenose-plot-limits-"))).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    brief = WebService.start(bus.vertx(), daemons, new WebService.Options("127.0.0.1", 0, null,
        Files.createTempDirectory("bottlenose-plot-lifetime-"), false, GRACE)).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  @AfterAll
  void stop() throws Exception {
    try {
      for (WebService s : new WebService[] {limited, brief}) {
        if (s != null) {
          s.close().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
        }
      }
    } finally {
      if (daemons != null) {
        daemons.close();
      }
      if (daemon != null) {
        daemon.close();
      }
      if (target != null) {
        target.close();
      }
      if (bus != null) {
        bus.close();
      }
    }
  }

  /** Each test leaves the daemon as it found it: its views deleted, its sockets closed, nothing of the web's measured. */
  @AfterEach
  void removeWhatWasMade() throws Exception {
    for (WebSocket ws : sockets) {
      ws.abort();
    }
    sockets.clear();
    for (String entry : made) {
      String[] p = entry.split(" ");
      raw(Integer.parseInt(p[0]), "127.0.0.1", "DELETE", p[1], null);
    }
    made.clear();
    await("nothing of the web's measured").atMost(Duration.ofSeconds(30)).until(() -> webRequesters().isEmpty());
  }

  @Test
  void plotsAndViewsAreLimitedPerClientAndInAllAndARefusedOneEnablesNothing() throws Exception {
    int port = limited.port();
    List<String> mine = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      mine.add(plot(port, "127.0.0.1"));
    }
    int active = active().size();
    Answer ninth = raw(port, "127.0.0.1", "POST", "/api/plots", plotBody());
    assertThat(ninth.status).as(ninth.body).isEqualTo(429);
    assertThat(ninth.json().getString("error")).contains("client 127.0.0.1 has 8 live plots and VM-vs-app views ("
        + mine.stream().sorted().collect(Collectors.joining(", ")) + "), the most one client may have at once")
        .contains("DELETE /api/plots/{plotId}");
    assertThat(ninth.json().getInteger("limit")).isEqualTo(8);
    assertThat(ninth.json().getJsonArray("views").getList()).containsExactlyInAnyOrderElementsOf(mine);
    Answer view = raw(port, "127.0.0.1", "POST", "/api/vmapp", new JsonObject().put("daemonId", daemon.id()).encode());
    assertThat(view.status).as(view.body).isEqualTo(429);
    assertThat(active()).as("the refused plot and view enabled nothing on the daemon").hasSize(active);
    assertThat(webRequesters()).containsExactlyInAnyOrderElementsOf(mine.stream().map(id -> "web plot " + id).toList());

    // Three more clients fill the service's 32; a VM-vs-app view counts as one (however many metrics it enables).
    String viewId = null;
    for (String client : List.of("127.0.0.2", "127.0.0.3", "127.0.0.4")) {
      for (int i = 0; i < 8; i++) {
        if (viewId == null) {
          Answer v = raw(port, client, "POST", "/api/vmapp", new JsonObject().put("daemonId", daemon.id()).encode());
          assertThat(v.status).as(v.body).isEqualTo(201);
          viewId = v.json().getString("viewId");
          made.add(port + " /api/vmapp/" + viewId);
        } else {
          plot(port, client);
        }
      }
    }
    assertThat(webRequesters()).hasSize(32).contains("web vm-vs-app " + viewId);
    active = active().size();
    Answer full = raw(port, "127.0.0.5", "POST", "/api/plots", plotBody());
    assertThat(full.status).as(full.body).isEqualTo(429);
    assertThat(full.json().getString("error")).contains("the service has 32 live plots and VM-vs-app views, the most it keeps at once");
    assertThat(full.json().getInteger("limit")).isEqualTo(32);
    assertThat(active()).as("the refused plot enabled nothing on the daemon").hasSize(active);

    // Deleting one frees a place, and removes its measurement from the daemon.
    Answer deleted = raw(port, "127.0.0.1", "DELETE", "/api/plots/" + mine.get(0), null);
    assertThat(deleted.status).as(deleted.body).isEqualTo(200);
    assertThat(webRequesters()).hasSize(31).doesNotContain("web plot " + mine.get(0));
    plot(port, "127.0.0.5");
    assertThat(webRequesters()).hasSize(32);
  }

  /**
   * A focus written as Java writes it is measured at the path the daemon resolves it to in the target, as the commands'
   * --focus is; an overloaded name is refused listing its candidates, an unknown one saying how far it was found, and
   * neither enables anything.
   */
  @Test
  void aFocusInJavasWordsIsMeasuredWhereTheTargetHasIt() throws Exception {
    int port = limited.port();
    Answer plot = raw(port, "127.0.0.1", "POST", "/api/plots", new JsonObject().put("daemonId", daemon.id())
        .put("metric", "cpu_inclusive").put("focus", "dev.bottlenose.tests.workloads.HotMethodWorkload::burn").encode());
    assertThat(plot.status).as(plot.body).isEqualTo(201);
    made.add(port + " /api/plots/" + plot.json().getString("plotId"));
    assertThat(plot.json().getString("focus")).isEqualTo("<" + BURN + ">");
    Answer view = raw(port, "127.0.0.1", "POST", "/api/vmapp", new JsonObject().put("daemonId", daemon.id())
        .put("focus", "dev.bottlenose.tests.workloads.HotMethodWorkload").encode());
    assertThat(view.status).as(view.body).isEqualTo(201);
    made.add(port + " /api/vmapp/" + view.json().getString("viewId"));
    assertThat(view.json().getString("focus")).isEqualTo("</Code/dev.bottlenose.tests.workloads/HotMethodWorkload>");
    assertThat(active()).filteredOn(m -> m.getString("requester").equals("web plot " + plot.json().getString("plotId")))
        .singleElement().satisfies(m -> assertThat(m.getString("focus")).isEqualTo("<" + BURN + ">"));

    int before = active().size();
    Answer overloaded = raw(port, "127.0.0.1", "POST", "/api/plots", new JsonObject().put("daemonId", daemon.id())
        .put("metric", "cpu_inclusive").put("focus", "java.lang.String::valueOf").encode());
    assertThat(overloaded.status).as(overloaded.body).isEqualTo(400);
    assertThat(overloaded.json().getString("error")).contains("'java.lang.String::valueOf' names")
        .contains("places; write one of").contains("/Code/java.lang/String/valueOf(Ljava/lang/Object;)Ljava/lang/String;")
        .contains("/Code/java.lang/String/valueOf(I)Ljava/lang/String;");
    Answer unknown = raw(port, "127.0.0.1", "POST", "/api/vmapp", new JsonObject().put("daemonId", daemon.id())
        .put("focus", "dev.bottlenose.tests.workloads.HotMethodWorkload::fly").encode());
    assertThat(unknown.status).as(unknown.body).isEqualTo(400);
    assertThat(unknown.json().getString("error"))
        .contains("no code matches 'dev.bottlenose.tests.workloads.HotMethodWorkload::fly'").contains("has no method fly");
    assertThat(active()).as("the refused ones enabled nothing").hasSize(before);
  }

  @Test
  void requestsAtTheSameTimeCannotOvershootTheLimit() throws Exception {
    int port = limited.port();
    List<CompletableFuture<Answer>> all = IntStream.range(0, 20).mapToObj(i -> CompletableFuture.supplyAsync(() -> {
      try {
        return raw(port, "127.0.0.1", "POST", "/api/plots", plotBody());
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    })).toList();
    List<Answer> answers = all.stream().map(CompletableFuture::join).toList();
    answers.stream().filter(a -> a.status == 201).forEach(a -> made.add(port + " /api/plots/" + a.json().getString("plotId")));
    assertThat(answers).extracting(a -> a.status).filteredOn(s -> s == 201).hasSize(8);
    assertThat(answers).extracting(a -> a.status).filteredOn(s -> s == 429).hasSize(12);
    assertThat(webRequesters()).as("on the daemon").hasSize(8);
  }

  @Test
  void aViewNobodyWatchesLeavesTheDaemonAfterTheGracePeriodAndAWatchedOneStays() throws Exception {
    int port = brief.port();
    long start = System.nanoTime();
    String unwatched = plot(port, "127.0.0.1");
    Answer v = raw(port, "127.0.0.1", "POST", "/api/vmapp", new JsonObject().put("daemonId", daemon.id()).encode());
    assertThat(v.status).as(v.body).isEqualTo(201);
    String view = v.json().getString("viewId");
    String watched = plot(port, "127.0.0.1");
    BlockingQueue<JsonObject> received = new LinkedBlockingQueue<>();
    WebSocket ws = live(port, received);
    subscribe(ws, received, "plot:" + watched);
    assertThat(webRequesters()).contains("web plot " + unwatched, "web vm-vs-app " + view, "web plot " + watched);

    await("the unwatched plot and view leave the daemon").atMost(GRACE.plusSeconds(20)).pollInterval(Duration.ofMillis(200))
        .until(() -> !webRequesters().contains("web plot " + unwatched) && !webRequesters().contains("web vm-vs-app " + view));
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(GRACE);
    assertThat(askedBy()).as("nothing of theirs left in the target's ledger")
        .noneMatch(a -> a.startsWith("web plot " + unwatched + " ") || a.startsWith("web vm-vs-app " + view + " "));
    assertThat(raw(port, "127.0.0.1", "DELETE", "/api/plots/" + unwatched, null).status).isEqualTo(404);
    assertThat(raw(port, "127.0.0.1", "DELETE", "/api/vmapp/" + view, null).status).isEqualTo(404);

    // The watched one stays, measuring: the hot target's CPU arrives on its topic (after an interval or two of 0 while
    // JFR's first samples are on their way).
    assertThat(webRequesters()).containsExactly("web plot " + watched);
    await("a value of the watched plot").atMost(Duration.ofSeconds(20)).until(() -> next(received, "plot:" + watched),
        e -> e.getJsonObject("event").getValue("value") instanceof Number n && n.doubleValue() > 0);

    // A page that reloads unsubscribes and subscribes again within the grace period: the plot stays.
    ws.sendText(new JsonObject().put("op", "unsubscribe").put("topic", "plot:" + watched).encode(), true).get(5, TimeUnit.SECONDS);
    Thread.sleep(GRACE.toMillis() / 3);
    subscribe(ws, received, "plot:" + watched);
    Thread.sleep(GRACE.multipliedBy(2).toMillis());
    assertThat(webRequesters()).containsExactly("web plot " + watched);

    // Its last subscriber leaves: it goes a grace period later.
    long left = System.nanoTime();
    ws.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(5, TimeUnit.SECONDS);
    await("the plot leaves the daemon once unwatched").atMost(GRACE.plusSeconds(20)).pollInterval(Duration.ofMillis(200))
        .until(() -> webRequesters().isEmpty());
    assertThat(Duration.ofNanos(System.nanoTime() - left)).isGreaterThanOrEqualTo(GRACE.minusMillis(200));
    assertThat(askedBy()).noneMatch(a -> a.startsWith("web "));
  }

  @Test
  void runningSearchesAreLimitedPerClient() throws Exception {
    int port = limited.port();
    String body = new JsonObject().put("daemons", new JsonArray().add(daemon.id())).put("maxTimeSeconds", 300).encode();
    List<String> searches = new ArrayList<>();
    try {
      for (int i = 0; i < 2; i++) {
        Answer a = raw(port, "127.0.0.1", "POST", "/api/searches", body);
        assertThat(a.status).as(a.body).isEqualTo(201);
        searches.add(a.json().getString("searchId"));
      }
      Answer third = raw(port, "127.0.0.1", "POST", "/api/searches", body);
      assertThat(third.status).as(third.body).isEqualTo(429);
      assertThat(third.json().getString("error")).contains("client 127.0.0.1 runs 2 searches (" + String.join(", ", searches)
          + "), the most one client may run at once").contains("POST /api/searches/{searchId}/stop");
      assertThat(third.json().getJsonArray("searches").getList()).containsExactlyElementsOf(searches);
      Answer list = raw(port, "127.0.0.1", "GET", "/api/searches", null);
      assertThat(list.json().getJsonArray("searches")).hasSize(2);

      Answer theirs = raw(port, "127.0.0.2", "POST", "/api/searches", body);
      assertThat(theirs.status).as(theirs.body).isEqualTo(201);
      searches.add(theirs.json().getString("searchId"));
    } finally {
      for (String id : searches) {
        raw(port, "127.0.0.1", "POST", "/api/searches/" + id + "/stop", null);
      }
      for (String id : searches) {
        awaitEnded(port, id);
      }
    }
    Answer again = raw(port, "127.0.0.1", "POST", "/api/searches", body);
    assertThat(again.status).as("a place is free once they ended: " + again.body).isEqualTo(201);
    String id = again.json().getString("searchId");
    raw(port, "127.0.0.1", "POST", "/api/searches/" + id + "/stop", null);
    awaitEnded(port, id);
  }

  /** Until the search has ended and released what it measured on the daemon. */
  private void awaitEnded(int port, String searchId) {
    await("search " + searchId + " ended").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
        .until(() -> !raw(port, "127.0.0.1", "GET", "/api/searches/" + searchId, null).json().getBoolean("running")
            && active().stream().noneMatch(m -> m.getString("requester").equals("consultant search " + searchId)));
  }

  // ---- the daemon's side ----

  /** The metrics the daemon measures now ({@code metrics.list}'s {@code active}). */
  private List<JsonObject> active() throws Exception {
    return bus.request(Addresses.metricsList(daemon.id()), new JsonObject()).getJsonArray("active").stream()
        .map(o -> (JsonObject) o).toList();
  }

  /** Who asked for what the daemon measures for the web service: {@code web plot p3}, {@code web vm-vs-app v4}, once each. */
  private Set<String> webRequesters() throws Exception {
    return active().stream().map(m -> m.getString("requester")).filter(r -> r.startsWith("web ")).collect(Collectors.toSet());
  }

  /** Who asked for each probe and source in the target's ledger. */
  private List<String> askedBy() throws Exception {
    JsonObject ledger = bus.request(Addresses.ledger(daemon.id()), new JsonObject());
    List<String> all = new ArrayList<>();
    for (String kind : List.of("entries", "sources")) {
      ledger.getJsonArray(kind).forEach(o -> all.add(String.valueOf(((JsonObject) o).getString("askedBy"))));
    }
    return all;
  }

  // ---- the service's side ----

  private String plotBody() {
    return new JsonObject().put("daemonId", daemon.id()).put("metric", "cpu_inclusive").encode();
  }

  /** A plot of the hot target's CPU made by {@code client}; its id. */
  private String plot(int port, String client) throws IOException {
    Answer a = raw(port, client, "POST", "/api/plots", plotBody());
    assertThat(a.status).as(client + ": " + a.body).isEqualTo(201);
    String id = a.json().getString("plotId");
    made.add(port + " /api/plots/" + id);
    return id;
  }

  private WebSocket live(int port, BlockingQueue<JsonObject> received) throws Exception {
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
    sockets.add(ws);
    return ws;
  }

  private static void subscribe(WebSocket ws, BlockingQueue<JsonObject> received, String topic) throws Exception {
    ws.sendText(new JsonObject().put("op", "subscribe").put("topic", topic).encode(), true).get(5, TimeUnit.SECONDS);
    // values sent before it may still be queued
    while (!"subscribed".equals(next(received, topic).getJsonObject("event").getString("type"))) {
      // skip them
    }
  }

  private static JsonObject next(BlockingQueue<JsonObject> received, String topic) throws InterruptedException {
    while (true) {
      JsonObject m = received.poll(10, TimeUnit.SECONDS);
      assertThat(m).as("a message on " + topic).isNotNull();
      if (topic.equals(m.getString("topic"))) {
        assertThat(m.getString("error")).as(m.encode()).isNull();
        return m;
      }
    }
  }

  /** An answer read off the socket. */
  private record Answer(int status, String body) {
    JsonObject json() {
      return new JsonObject(body);
    }
  }

  /** One request from the local address {@code client} (another loopback address is another client of the limits). */
  private static Answer raw(int port, String client, String method, String path, String body) throws IOException {
    try (Socket socket = new Socket(InetAddress.getByName("127.0.0.1"), port, InetAddress.getByName(client), 0)) {
      socket.setSoTimeout(60_000);
      byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
      String head = method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n"
          + (body == null ? "" : "Content-Type: application/json\r\nContent-Length: " + content.length + "\r\n") + "Connection: close\r\n\r\n";
      socket.getOutputStream().write(head.getBytes(StandardCharsets.ISO_8859_1));
      socket.getOutputStream().write(content);
      socket.getOutputStream().flush();
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      socket.getInputStream().transferTo(all);
      String text = all.toString(StandardCharsets.UTF_8);
      int end = text.indexOf("\r\n\r\n");
      return new Answer(Integer.parseInt(text.split(" ", 3)[1]), end < 0 ? "" : text.substring(end + 4));
    }
  }
}
