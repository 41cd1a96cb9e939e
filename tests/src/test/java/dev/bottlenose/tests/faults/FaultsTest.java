package dev.bottlenose.tests.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bottlenose.bus.Addresses;
import dev.bottlenose.tests.harness.Bus;
import dev.bottlenose.tests.harness.DaemonProcess;
import dev.bottlenose.tests.harness.TargetJvm;
import dev.bottlenose.tests.harness.TargetJvm.Jdk;
import dev.bottlenose.tests.harness.WebProcess;
import dev.bottlenose.tests.workloads.HotMethodWorkload;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What happens when a part dies, with every part real: a member that leaves takes its measurements with it;
 * a service killed with SIGKILL takes its daemon (and so every probe) with it and its search is listed as
 * interrupted after a restart; a daemon killed mid-search ends the search "daemon lost", not "converged";
 * two searches of one JVM at once share one daemon (served by one of them) and leave nothing behind.
 */
class FaultsTest {
  static final String WORKLOADS = "/Code/dev.bottlenose.tests.workloads";
  /** Called once at the start: a probe may go in (burn's class is refused, its loop never returns). */
  static final String ON_EXIT = WORKLOADS + "/ExitCommand/onExit(Ljava/lang/Runnable;)V";
  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void aMemberThatLeavesTheClusterTakesWhatItEnabledWithIt() throws Exception {
    try (Bus bus = Bus.join(); TargetJvm target = TargetJvm.start(Jdk.JDK17, HotMethodWorkload.class);
        DaemonProcess daemon = DaemonProcess.attach(target.pid(), bus.secret())) {
      bus.awaitRunning(daemon);
      try (Bus plot = Bus.join(bus.secret())) {
        plot.request(Addresses.enable(daemon.id()), new JsonObject().put("focus", ON_EXIT).put("kind", "call_count")
            .put("requester", "a plot"));
        plot.request(Addresses.metricEnable(daemon.id()), new JsonObject().put("metric", "cpu_inclusive")
            .put("focus", "<" + WORKLOADS + ">").put("requester", "a plot"));
        assertThat(bus.request(Addresses.ledger(daemon.id()), new JsonObject()).getJsonArray("entries")).isNotEmpty();
      }
      await("the leaver's probe and metric removed").atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(500))
          .until(() -> bus.request(Addresses.ledger(daemon.id()), new JsonObject()).getJsonArray("entries").isEmpty()
              && bus.request(Addresses.metricsList(daemon.id()), new JsonObject()).getJsonArray("active").isEmpty());
      assertThat(daemon.isAlive()).as("a daemon nobody holds serves on").isTrue();
    }
  }

  @Test
  void aServiceKilledMidSearchTakesItsDaemonAndProbesWithItAndItsSearchIsListedInterruptedAfterARestart()
      throws Exception {
    Path data = Files.createTempDirectory("bottlenose-faults-");
    try (Bus bus = Bus.join(); TargetJvm target = TargetJvm.start(Jdk.JDK17, HotMethodWorkload.class)) {
      String searchId;
      String daemonId;
      try (WebProcess serve = WebProcess.start(bus.secret(), "serve", "--port", "0", "--data", data.toString())) {
        String url = serve.awaitUrl(Duration.ofSeconds(90));
        daemonId = post(url + "/api/jvms", new JsonObject().put("pid", target.pid()), 201).getString("daemonId");
        searchId = post(url + "/api/searches", new JsonObject().put("daemons", new JsonArray().add(daemonId))
            .put("budget", 0.2).put("maxTimeSeconds", 600), 201).getString("searchId");
        await("the search measuring in the target").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
            .until(() -> {
              JsonObject ledger = bus.request(Addresses.ledger(daemonId), new JsonObject());
              return !ledger.getJsonArray("entries").isEmpty() || !ledger.getJsonArray("sources").isEmpty();
            });
        Thread.sleep(3000);
        assertThat(data.resolve(searchId + ".journal")).exists();
        serve.kill();
      }
      await("the daemon the killed service held, gone").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
          .until(() -> WebProcess.daemonsFor(target.pid()).isEmpty());
      try (DaemonProcess fresh = DaemonProcess.attach(target.pid(), bus.secret())) {
        bus.awaitRunning(fresh);
        JsonObject ledger = bus.request(Addresses.ledger(fresh.id()), new JsonObject());
        assertThat(ledger.getJsonArray("entries")).as("probes left in the target").isEmpty();
        assertThat(ledger.getJsonArray("sources")).as("sources left in the target").isEmpty();
      }
      try (WebProcess again = WebProcess.start(bus.secret(), "serve", "--port", "0", "--data", data.toString())) {
        String url = again.awaitUrl(Duration.ofSeconds(90));
        JsonArray searches = get(url + "/api/searches").getJsonArray("searches");
        assertThat(searches.stream().map(JsonObject.class::cast)).as(searches.encodePrettily())
            .anySatisfy(s -> {
              assertThat(s.getString("searchId")).isEqualTo(searchId);
              assertThat(s.getBoolean("running")).isFalse();
              assertThat(s.getString("endReason")).startsWith("interrupted:");
              assertThat(s.getInteger("nodes")).isGreaterThan(1);
            });
        assertThat(data.resolve(searchId + ".journal")).doesNotExist();
      }
    }
  }

  @Test
  void aDaemonKilledMidSearchEndsTheSearchDaemonLostWithExitCodeOne() throws Exception {
    Path data = Files.createTempDirectory("bottlenose-faults-");
    try (Bus bus = Bus.join(); TargetJvm target = TargetJvm.start(Jdk.JDK17, HotMethodWorkload.class);
        // a daemon process of its own, which the test can kill (by default a search serves its target itself)
        WebProcess search = WebProcess.start(bus.secret(), List.of("-Dbottlenose.search.daemons=process"), "search",
            "--pid", Long.toString(target.pid()),
            "--budget", "20%", "--max-time", "300s", "--data", data.toString())) {
      await("the search running").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500))
          .failFast("the search command ended", () -> !search.isAlive())
          .until(() -> journals(data) > 0 && WebProcess.daemonsFor(target.pid()).size() == 1);
      Thread.sleep(4000);
      WebProcess.daemonsFor(target.pid()).forEach(ProcessHandle::destroyForcibly);

      assertThat(search.waitFor(Duration.ofSeconds(90))).as(search.out() + search.err()).isEqualTo(1);
      assertThat(search.out()).contains("ended: daemon lost");
      assertThat(search.err()).contains("the search did not finish: daemon lost");
      try (Stream<Path> saved = Files.list(data)) {
        Path file = saved.filter(p -> p.toString().endsWith(".json")).findFirst().orElseThrow();
        assertThat(new JsonObject(Files.readString(file)).getString("endReason")).startsWith("daemon lost");
      }
    }
  }

  @Test
  void twoSearchesOfOneJvmAtOnceShareOneDaemon() throws Exception {
    Path data = Files.createTempDirectory("bottlenose-faults-");
    try (Bus bus = Bus.join(); TargetJvm target = TargetJvm.start(Jdk.JDK17, HotMethodWorkload.class)) {
      String[] args = {"search", "--pid", Long.toString(target.pid()), "--budget", "10%", "--max-time", "25s",
          "--data", data.toString()};
      AtomicInteger most = new AtomicInteger();
      try (WebProcess first = WebProcess.start(bus.secret(), args); WebProcess second = WebProcess.start(bus.secret(), args)) {
        while (first.isAlive() || second.isAlive()) {
          most.accumulateAndGet(registeredFor(bus, target.pid()), Math::max);
          Thread.sleep(200);
        }
        assertThat(first.waitFor(Duration.ofSeconds(1))).as(first.err()).isZero();
        assertThat(second.waitFor(Duration.ofSeconds(1))).as(second.err()).isZero();
        // one command serves the target itself; the other finds it served, and holds that daemon
        assertThat(most.get()).as("daemons serving the target at once").isEqualTo(1);
        assertThat(daemonLine(first.err())).isEqualTo(daemonLine(second.err())).isNotNull();
        assertThat(List.of(first.err(), second.err())).as("served in one of the two processes")
            .filteredOn(err -> err.contains(") in this process")).hasSize(1);
      }
      await("the shared daemon stopped after both").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
          .until(() -> WebProcess.daemonsFor(target.pid()).isEmpty());
      try (DaemonProcess daemon = DaemonProcess.attach(target.pid(), bus.secret())) {
        bus.awaitRunning(daemon);
        JsonObject ledger = bus.request(Addresses.ledger(daemon.id()), new JsonObject());
        assertThat(ledger.getJsonArray("entries")).as("probes left in the target").isEmpty();
        assertThat(ledger.getJsonArray("sources")).as("sources left in the target").isEmpty();
      }
    }
  }

  /** How many daemons the cluster's registry lists for {@code pid}. */
  private static int registeredFor(Bus bus, long pid) {
    try {
      return (int) bus.request(Addresses.DAEMONS_LIST, new JsonObject()).getJsonArray("daemons").stream()
          .map(JsonObject.class::cast).filter(d -> d.getLong("pid", -1L) == pid).count();
    } catch (Exception noDaemonYet) {
      return 0;
    }
  }

  private static String daemonLine(String err) {
    return err.lines().filter(l -> l.startsWith("bottlenose: daemon ") && l.contains(" serves pid ")).findFirst()
        .map(l -> l.substring(0, l.indexOf(" serves pid "))).orElse(null);
  }

  private static long journals(Path data) throws Exception {
    try (Stream<Path> files = Files.list(data)) {
      return files.filter(p -> p.toString().endsWith(".journal")).count();
    }
  }

  private JsonObject post(String url, JsonObject body, int expected) throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
        .timeout(Duration.ofSeconds(150)).POST(HttpRequest.BodyPublishers.ofString(body.encode())).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(url + " " + r.body()).isEqualTo(expected);
    return new JsonObject(r.body());
  }

  private JsonObject get(String url) throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(url + " " + r.body()).isEqualTo(200);
    return new JsonObject(r.body());
  }
}
