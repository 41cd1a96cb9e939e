package dev.bottlenose.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.tools.attach.VirtualMachine;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.ResourcePath;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The agent in a real JDK 17 target: loaded with {@code -javaagent} (a long-heartbeat session) and
 * attached a second time at run time (short-heartbeat sessions), with this test as the daemon.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AgentIT {
  static final String WORKLOAD = "/Code/" + WorkloadClasses.PACKAGE + "/AgentWorkload";
  static final String TICK = WORKLOAD + "/tick(I)J";

  private FakeDaemon daemon;
  private Target target;
  private FakeDaemon.Channel channel;

  @BeforeAll
  void start() throws Exception {
    daemon = new FakeDaemon();
    target = Target.start(Target.jdk17(), "-Dbottlenose.agent.verbose=true", "-javaagent:" + Target.AGENT_JAR + "=" + daemon.options(60_000, "it-main"));
    channel = daemon.accept(Duration.ofSeconds(20));
  }

  @AfterAll
  void stop() throws Exception {
    String stderr = target.stderr();
    channel.close();
    target.close();
    daemon.close();
    assertThat(stderr).doesNotContain("discovery step failed").doesNotContain("agent not started");
  }

  @Test
  void helloDescribesTheTarget() {
    assertThat(channel.hello).containsEntry("event", "hello").containsEntry("token", daemon.token)
        .containsEntry("pid", target.pid()).containsEntry("mainClass", WorkloadClasses.MAIN_CLASS)
        .containsEntry("retransformSupported", true).containsEntry("loadedBy", "premain")
        .containsEntry("agentVersion", "0.1.0").containsKeys("javaVendor", "vmName", "commandLine", "startedAtMillis");
    assertThat((String) channel.hello.get("javaVersion")).startsWith("17");
    assertThat((String) channel.hello.get("commandLine")).contains("token=***").doesNotContain(daemon.token);
  }

  @Test
  void pingAnswersWithTheTargetsClock() throws Exception {
    assertThat(channel.request("ping")).containsEntry("ok", true).containsKey("nanoTime");
  }

  @Test
  void codeHasTheWorkloadsClassesAndMethods() throws Exception {
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
        assertThat(paths("/Code/" + WorkloadClasses.PACKAGE, 1)).contains(WORKLOAD, WORKLOAD + "$SharedLock"));
    List<Map<String, Object>> methods = resources(WORKLOAD, 1);
    assertThat(methods.get(0)).containsEntry("kind", "class");
    assertThat(pathsOf(methods)).contains(TICK, WORKLOAD + "/main([Ljava/lang/String;)V", WORKLOAD + "/<init>()V");
    assertThat(pathsOf(resources("/Code/java.lang", 1))).contains("/Code/java.lang/String", "/Code/java.lang/Integer");
    String parseInt = "/Code/java.lang/Integer/parseInt(Ljava/lang/String;)I";
    assertThat(channel.request("resources", "path", parseInt, "depth", 0L))
        .as("listing a package's classes reads none of their methods").containsEntry("code", "NO_SUCH_RESOURCE");
    assertThat(paths("/Code/java.lang/Integer", 1)).contains(parseInt);
    assertThat(paths("/Code/java.lang", 2)).as("two levels below a package reach its methods")
        .contains("/Code/java.lang/Short/parseShort(Ljava/lang/String;)S");
    assertThat(pathsOf(resources("/Code", 1))).noneMatch(p -> p.startsWith("/Code/dev.bottlenose"));
  }

  @Test
  void aClassLoadedLaterAppearsAndIsMarkedUnloadedOnceCollected() throws Exception {
    String plugin = "/Code/" + WorkloadClasses.PACKAGE + "/AgentWorkload$Plugin";
    assertThat(channel.request("resources", "path", plugin)).containsEntry("code", "NO_SUCH_RESOURCE");
    target.command("plugin load", "plugin loaded");
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
        assertThat(channel.request("resources", "path", plugin, "depth", 0L)).containsEntry("ok", true));
    assertThat(attributes(resources(plugin, 0).get(0))).doesNotContainKey("unloaded");
    assertThat(target.command("plugin drop", "plugin dropped")).isEqualTo("plugin dropped collected=true");
    await().atMost(Duration.ofSeconds(15)).untilAsserted(() ->
        assertThat(attributes(resources(plugin, 0).get(0))).containsEntry("unloaded", "true"));
  }

  @Test
  void threadsAreGroupedIntoPools() throws Exception {
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
        assertThat(paths("/Threads", -1)).contains("/Threads/bn-lock", "/Threads/bn-lock/bn-lock-1",
            "/Threads/bn-lock/bn-lock-2", "/Threads/main/main"));
    Map<String, Object> lockThread = resources("/Threads/bn-lock/bn-lock-1", 0).get(0);
    assertThat(lockThread).containsEntry("kind", "thread");
    assertThat(attributes(lockThread)).containsKeys("state", "id", "daemon", "cpuNanos", "blockedCount")
        .doesNotContainKey("tool");
    assertThat(attributes(resources("/Threads/bottlenose", 0).get(0))).as("the agent's own pool")
        .containsEntry("tool", "true");
    assertThat(resources("/Threads/bottlenose", 1)).allSatisfy(t -> assertThat(attributes(t)).containsEntry("tool", "true"));
  }

  @Test
  void theContendedMonitorIsASyncObject() {
    String lock = SyncObjectsPath.monitor(WorkloadClasses.LOCK_CLASS);
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
      assertThat(paths("/SyncObjects/monitors", 1)).contains(lock);
      assertThat(Long.parseLong((String) attributes(resources(lock, 0).get(0)).get("blockedSamples"))).isPositive();
    });
  }

  @Test
  void theFileKeptOpenIsAnIoResource() throws Exception {
    String file = ResourcePath.of(Hierarchy.IO, "file", target.keptOpen.toString()).toString();
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(paths("/IO/file", 1)).contains(file));
    assertThat(paths("/IO/socket", 1)).isNotEmpty();
  }

  @Test
  void vmProcessAndMachineAreDescribed() throws Exception {
    List<Map<String, Object>> gc = resources("/VM/GC", 1);
    assertThat(gc).hasSizeGreaterThan(1);
    assertThat(attributes(gc.get(1))).containsKeys("count", "timeMillis");
    assertThat(paths("/VM", 1)).contains("/VM/GC", "/VM/JIT", "/VM/ClassLoading", "/VM/Safepoints", "/VM/Interpreter",
        "/VM/Deoptimization");
    assertThat(attributes(resources("/VM", 0).get(0))).containsEntry("jfr", "running");
    Map<String, Object> process = resources("/Process/" + target.pid(), 0).get(0);
    assertThat(attributes(process)).containsEntry("mainClass", WorkloadClasses.MAIN_CLASS);
    assertThat(resources("/Machine", 1)).hasSize(2);
    assertThat(pathsOf(resources("/", 1))).contains("/Code", "/Threads", "/SyncObjects", "/Memory", "/IO", "/VM",
        "/Process", "/Machine");
  }

  @Test
  void changesArePushed() {
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(channel.changes).isNotEmpty());
    @SuppressWarnings("unchecked")
    Map<String, Object> first = ((List<Map<String, Object>>) channel.changes.get(0).get("changes")).get(0);
    assertThat(first).containsKeys("type", "resource");
  }

  @Test
  void badRequestsAreAnsweredWithClearErrorsAndChangeNothing() throws Exception {
    assertError(channel.request("fly"), "UNKNOWN_OP", "unknown op 'fly'");
    assertError(channel.request("resources", "path", "/Code/no.such.pkg"), "NO_SUCH_RESOURCE", "/Code/no.such.pkg");
    assertError(channel.request("resources", "path", "Code"), "BAD_REQUEST", "path");
    assertError(channel.request("insert", "method", WORKLOAD.replace("AgentWorkload", "Missing") + "/x()V", "kind", "call_count"),
        "NO_SUCH_CLASS", "/Code/" + WorkloadClasses.PACKAGE + "/Missing/x()V");
    assertError(channel.request("insert", "method", WORKLOAD + "/nope()V", "kind", "call_count"),
        "NO_SUCH_METHOD", WORKLOAD + "/nope()V");
    assertError(channel.request("insert", "method", "/Threads/main", "kind", "call_count"), "BAD_REQUEST", "not a method path");
    assertError(channel.request("insert", "method", TICK, "kind", "bogus"), "BAD_REQUEST", "unknown probe kind 'bogus'");
    assertError(channel.request("insert", "method", TICK, "kind", "call_count", "callee", TICK), "BAD_REQUEST", "callee");
    assertError(channel.request("remove", "probeId", 987654L), "NO_SUCH_PROBE", "");
    assertError(channel.request("classBytes"), "BAD_REQUEST", "className");
    assertError(channel.send(null, Map.of("op", "ping")), "BAD_REQUEST", "no integer id");
    assertError(channel.send(900_001L, Map.of("id", 900_001L)), "BAD_REQUEST", "missing op");
    assertError(channel.request("watch", "source", Map.of("event", "park", "mode", "x")), "BAD_REQUEST",
        "unknown field 'mode' in source (mode: x;");
    assertError(channel.request("watch", "source", Map.of("event", "cpu_sample", "period", 5000L)), "BAD_REQUEST",
        "period 5000 ms is out of range");
    assertError(channel.request("jfr", "gc", "G1"), "BAD_REQUEST", "gc must be a list of tuples, not G1");
    assertError(channel.sendRaw("{\"id\":1,".getBytes(java.nio.charset.StandardCharsets.UTF_8)), "BAD_REQUEST", "not valid JSON");
    assertThat(channel.request("ping")).containsEntry("ok", true);
    assertThat(channel.request("ledger").get("entries")).asList().isEmpty();
  }

  @Test
  void aCallCountProbeCountsExactlyAndRemovalRestoresTheClass() throws Exception {
    target.tick(10);
    Map<String, Object> before = channel.request("classBytes", "className", WorkloadClasses.MAIN_CLASS);
    assertThat(before).containsEntry("ok", true);
    Map<String, Object> inserted = channel.request("insert", "method", TICK, "kind", "call_count");
    assertThat(inserted).containsEntry("ok", true).containsEntry("method", TICK);
    Object probeId = inserted.get("probeId");

    assertThat(target.tick(1000)).contains("calls=1000");
    Map<String, Object> reading = readingOf(channel.request("read"), probeId);
    assertThat(reading).containsEntry("count", 1000L).containsEntry("kind", "call_count");
    assertThat(channel.request("ledger").get("entries")).asList().hasSize(1);

    Map<String, Object> removed = channel.request("remove", "probeId", probeId);
    assertThat(removed).containsEntry("ok", true).containsEntry("classRestored", true);
    assertThat(channel.request("classBytes", "className", WorkloadClasses.MAIN_CLASS))
        .containsEntry("sha256", before.get("sha256")).containsEntry("length", before.get("length"));
    String after = target.tick(500);
    assertThat(after).contains("calls=500").contains("sum=" + expectedSum(500));
  }

  @Test
  @SuppressWarnings("unchecked")
  void aBatchInsertsItsValidItemsAndRemovalRestoresEveryClass() throws Exception {
    target.tick(10);
    String hold = "/Code/" + WorkloadClasses.PACKAGE + "/AgentWorkload$SharedLock/hold()V";
    // A class's first woven version can change the bytes the VM hands out for it afterwards (here 5480 -> 5488
    // bytes after one insert and remove, batch or not): the same probes go in and out one by one first, and the
    // bytes after the batch's removal must equal those after the single removals.
    for (Object method : List.of(TICK, WORKLOAD + "/dropPlugin()Z", hold)) {
      Object id = channel.request("insert", "method", method, "kind", "call_count").get("probeId");
      assertThat(channel.request("remove", "probeId", id)).containsEntry("ok", true);
    }
    Map<String, Object> mainBefore = channel.request("classBytes", "className", WorkloadClasses.MAIN_CLASS);
    Map<String, Object> lockBefore = channel.request("classBytes", "className", WorkloadClasses.LOCK_CLASS);
    Map<String, Object> answer = channel.request("insertAll", "probes", List.of(
        Map.of("method", TICK, "kind", "call_count"),
        Map.of("method", WORKLOAD + "/dropPlugin()Z", "kind", "call_count"),
        Map.of("method", WORKLOAD + "/nope()V", "kind", "call_count"),
        Map.of("method", TICK, "kind", "bogus"),
        Map.of("method", hold, "kind", "call_count"),
        "not a probe"));
    assertThat(answer).containsEntry("ok", true);
    List<Map<String, Object>> results = (List<Map<String, Object>>) answer.get("results");
    assertThat(results).hasSize(6);
    assertThat(results.get(0)).containsEntry("method", TICK).containsKeys("probeId", "retransformNanos");
    assertThat(results.get(1)).containsEntry("method", WORKLOAD + "/dropPlugin()Z");
    assertThat(results.get(4)).containsEntry("method", hold);
    assertItemError(results.get(2), "NO_SUCH_METHOD", WORKLOAD + "/nope()V");
    assertItemError(results.get(3), "BAD_REQUEST", "unknown probe kind 'bogus'");
    assertItemError(results.get(5), "BAD_REQUEST", "probes[5] must be an object");
    assertThat(channel.request("ledger").get("entries")).asList().hasSize(3);
    assertThat(target.tick(300)).contains("calls=300");
    assertThat(readingOf(channel.request("read"), results.get(0).get("probeId"))).containsEntry("count", 300L);

    Map<String, Object> removed = channel.request("removeMany", "probeIds", List.of(results.get(0).get("probeId"),
        results.get(1).get("probeId"), 987654L, results.get(4).get("probeId")));
    assertThat(removed).containsEntry("ok", true);
    assertThat((List<Map<String, Object>>) removed.get("removed")).hasSize(3)
        .allSatisfy(r -> assertThat(r).containsEntry("classRestored", true));
    assertThat((List<Map<String, Object>>) removed.get("failures")).singleElement()
        .satisfies(f -> assertThat(f).containsEntry("probeId", 987654L).containsEntry("code", "NO_SUCH_PROBE"));
    assertThat(channel.request("ledger").get("entries")).asList().isEmpty();
    assertThat(channel.request("classBytes", "className", WorkloadClasses.MAIN_CLASS))
        .containsEntry("sha256", mainBefore.get("sha256")).containsEntry("length", mainBefore.get("length"));
    assertThat(channel.request("classBytes", "className", WorkloadClasses.LOCK_CLASS))
        .containsEntry("sha256", lockBefore.get("sha256"));
    assertThat(target.tick(500)).contains("calls=500").contains("sum=" + expectedSum(500));

    assertError(channel.request("insertAll"), "BAD_REQUEST", "insertAll needs probes");
    assertError(channel.request("removeMany", "probeIds", List.of("x")), "BAD_REQUEST", "probeIds[0] must be an integer");
    assertThat(channel.request("ledger").get("entries")).asList().isEmpty();
  }

  @SuppressWarnings("unchecked")
  private static void assertItemError(Map<String, Object> result, String code, String inMessage) {
    Map<String, Object> error = (Map<String, Object>) result.get("error");
    assertThat(error).as("error of %s", result).containsEntry("code", code);
    assertThat((String) error.get("message")).contains(inMessage);
  }

  @Test
  void aMonitorProbeOnASynchronizedMethodGetsTheBlockedTimeFromJfr() throws Exception {
    String hold = "/Code/" + WorkloadClasses.PACKAGE + "/AgentWorkload$SharedLock/hold()V";
    Map<String, Object> inserted = channel.request("insert", "method", hold, "kind", "monitor");
    assertThat(inserted).containsEntry("ok", true).containsEntry("method", hold);
    try {
      await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
        Map<String, Object> reading = readingOf(channel.request("read"), inserted.get("probeId"));
        assertThat((Long) reading.get("count")).isPositive();
        assertThat((Long) reading.get("nanos")).isGreaterThan(Duration.ofMillis(20).toNanos());
      });
    } finally {
      assertThat(channel.request("remove", "probeId", inserted.get("probeId"))).containsEntry("ok", true);
    }
  }

  @Test
  @SuppressWarnings("unchecked")
  void readReportsCostsCpuAndVmTotals() throws Exception {
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
      Map<String, Object> read = channel.request("read");
      assertThat(read).containsKeys("nanoTime", "readings", "cost", "agentCpuNanos", "processCpuNanos", "vm");
      assertThat((Long) read.get("agentCpuNanos")).isPositive().isLessThan((Long) read.get("processCpuNanos"));
      assertThat((Map<String, Object>) read.get("vm")).containsKeys("gcCount", "classesLoaded", "classesUnloaded",
          "jitCompilations", "jitNanos", "safepoints", "safepointNanos", "gcPauseNanos", "monitorBlockedNanos",
          "processCpuNanos");
    });
    assertThat(channel.request("status")).containsEntry("ok", true).containsKeys("suppressedErrors", "sessions", "probes");
  }

  @Test
  void aSilentSessionLosesItsProbesAfterTheHeartbeat() throws Exception {
    VirtualMachine vm = VirtualMachine.attach(String.valueOf(target.pid()));
    try {
      vm.loadAgent(Target.AGENT_JAR.toString(), daemon.options(1500, "it-short"));
    } finally {
      vm.detach();
    }
    try (FakeDaemon.Channel shortLived = daemon.acceptSilent(Duration.ofSeconds(20))) {
      assertThat(shortLived.hello).containsEntry("loadedBy", "agentmain").containsEntry("pid", target.pid());
      Map<String, Object> inserted = shortLived.request("insert", "method", TICK, "kind", "call_count");
      assertThat(inserted).containsEntry("ok", true);
      assertThat(channel.request("status")).containsEntry("sessions", 2L);
      assertThat(channel.request("ledger").get("entries")).asList().hasSize(1);

      assertThat(shortLived.awaitClosedByAgent(Duration.ofSeconds(10))).isNotNull();
      assertThat(channel.request("ledger").get("entries")).asList().isEmpty();
      await().atMost(Duration.ofSeconds(5)).untilAsserted(() ->
          assertThat(target.stderr()).contains("no frame from the daemon for 1500 ms", "removed 1 probe(s)"));
      assertThat(target.tick(100)).contains("calls=100").contains("sum=" + expectedSum(100));
    }
  }

  private static long expectedSum(int n) {
    long sum = 0;
    for (int i = 0; i < n; i++) {
      sum += i % 7;
    }
    return sum;
  }

  private static void assertError(Map<String, Object> response, String code, String inMessage) {
    assertThat(response).containsEntry("ok", false).containsEntry("code", code);
    assertThat((String) response.get("error")).contains(inMessage);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> readingOf(Map<String, Object> read, Object probeId) {
    for (Map<String, Object> r : (List<Map<String, Object>>) read.get("readings")) {
      if (probeId.equals(r.get("probeId"))) {
        return r;
      }
    }
    throw new AssertionError("no reading for probe " + probeId + " in " + read);
  }

  @SuppressWarnings("unchecked")
  private List<Map<String, Object>> resources(String path, int depth) throws Exception {
    Map<String, Object> response = channel.request("resources", "path", path, "depth", (long) depth);
    assertThat(response).as("resources %s", path).containsEntry("ok", true);
    return (List<Map<String, Object>>) response.get("resources");
  }

  private List<String> paths(String path, int depth) throws Exception {
    return pathsOf(resources(path, depth));
  }

  private static List<String> pathsOf(List<Map<String, Object>> resources) {
    return resources.stream().map(r -> (String) r.get("path")).toList();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> attributes(Map<String, Object> resource) {
    return (Map<String, Object>) resource.get("attributes");
  }

  /** Canonical text of a monitor resource path. */
  static final class SyncObjectsPath {
    static String monitor(String className) {
      return ResourcePath.of(Hierarchy.SYNC_OBJECTS, "monitors", className).toString();
    }
  }
}
