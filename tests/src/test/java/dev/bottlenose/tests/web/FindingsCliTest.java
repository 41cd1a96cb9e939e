package dev.bottlenose.tests.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.tests.harness.Bus;
import dev.bottlenose.tests.harness.TargetJvm;
import dev.bottlenose.tests.harness.TargetJvm.Jdk;
import diag.twocauses.PriceService;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code bottlenose search --json --fail-on sync_wait,…} on a program with two planted causes ({@link PriceService}: one thread
 * computing prices, three threads taking turns on a lock held across a sleep): the JSON carries both as
 * findings, ranked by the time they cost (the lock, three threads blocked most of the time, before the
 * one busy thread), each with its impact in words, the evidence that decided it and a next step, and the
 * sampled stacks kept with the search hold the hot method; the lock's finding names who held the lock as the search
 * ended (a quote thread asleep inside it) and ends the command with exit code 3. The
 * hypotheses this program does not plant (JIT, class loading, GC, I/O) are skipped so that the search
 * spends its time on the two; what it finds on its own is the diagnosis benchmark's business.
 */
class FindingsCliTest {

  @Test
  void twoPlantedCausesAreTwoFindingsRankedByImpactInTheJson() throws Exception {
    Path data = Files.createTempDirectory("bottlenose-findings-");
    try (Bus bus = Bus.join(); TargetJvm target = TargetJvm.start(Jdk.JDK17, PriceService.class, "-Ddiag.seconds=400")) {
      WebCli.Run run = WebCli.run(bus.secret(), 300, "search", "--pid", Long.toString(target.pid()), "--budget", "50%",
          "--max-time", "120s", "--data", data.toString(), "--json", "--fail-on", "sync_wait,memory_pressure",
          "--set", "search.sampling_interval_seconds=0.5", "--set", "search.min_observation_seconds=2",
          "--set", "search.sufficient_seconds=3", "--set", "search.max_active_experiments=1000",
          "--set", "search.skip=jit_compile_time,class_load_time,memory_pressure,io_wait");
      assertThat(run.exitCode()).as("--fail-on found the lock: " + run.err()).isEqualTo(3);
      assertThat(run.err().lines()).as("stderr holds only Bottlenose's own lines (its messages, its progress)")
          .allMatch(line -> line.startsWith("bottlenose") || line.matches("\\s+\\d.*") || line.isBlank())
          .as("no library's log record (Hazelcast, Vert.x, Drools), which prints as bottlenose: [level logger] …")
          .noneMatch(line -> line.startsWith("bottlenose: ["));
      assertThat(run.err()).containsPattern("bottlenose: --fail-on sync_wait,memory_pressure: \\d+ finding\\(s\\), the first Lock contention");
      JsonObject saved = new JsonObject(run.out());
      JsonObject cpuStacks = saved.getJsonArray("stacks").stream().map(o -> (JsonObject) o)
          .filter(s -> s.getString("graph").equals("cpu")).findFirst().orElseThrow(() -> new AssertionError("no cpu stacks kept"));
      assertThat(cpuStacks.getLong("samples")).isPositive();
      assertThat(cpuStacks.getJsonArray("frames").encode()).as("the pricing thread's hot method on the stacks kept")
          .contains("/Code/diag.twocauses/PriceService/price(DDDI)D");
      JsonArray findings = saved.getJsonArray("findings");
      String all = findings.encodePrettily();
      List<JsonObject> list = findings.stream().map(o -> (JsonObject) o).toList();

      JsonObject lock = list.stream().filter(f -> f.getString("hypothesis").equals("sync_wait")).findFirst()
          .orElseThrow(() -> new AssertionError("no lock-contention finding in " + all + "\n" + run.err()));
      JsonObject cpu = list.stream().filter(f -> f.getString("hypothesis").equals("cpu_bound")
          && f.getString("where").contains("diag.twocauses.PriceService.price(double, double, double, int)")).findFirst()
          .orElseThrow(() -> new AssertionError("no CPU-bound finding at price in " + all + "\n" + run.err()));
      assertThat(lock.getInteger("rank")).as(all).isLessThan(cpu.getInteger("rank"));
      assertThat(lock.getJsonArray("threads").getList()).as(all).containsExactlyInAnyOrder("quote-0", "quote-1", "quote-2");
      assertThat(lock.getJsonObject("impact").getString("text")).as(all).matches("3 threads spend \\d+% of their time blocked .*");
      assertThat(cpu.getJsonObject("impact").getString("text")).as(all).contains("pricing");
      JsonObject holder = lock.getJsonArray("holders").getJsonObject(0);
      assertThat(holder.getString("lock")).as("who held the lock as the search ended: " + all)
          .isEqualTo("lock java.util.concurrent.locks.ReentrantLock$NonfairSync");
      assertThat(holder.getString("owner")).as(all).startsWith("quote-");
      assertThat(holder.getString("ownerState")).as(all).isEqualTo("TIMED_WAITING");
      assertThat(holder.getJsonArray("doing").getList()).as(all).startsWith("java.lang.Thread.sleep")
          .anyMatch(frame -> frame.toString().startsWith("diag.twocauses.PriceService."));
      assertThat(saved.getJsonArray("holders").stream().map(o -> (JsonObject) o)
          .filter(h -> h.getString("lock").equals(holder.getString("lock"))).findFirst().orElseThrow()
          .getJsonArray("waiterPools").getList())
          .as("the waiters' pool, as /Threads names it, for a finding on a pool").containsExactly("quote");
      for (int i = 0; i < list.size(); i++) {
        JsonObject f = list.get(i);
        assertThat(f.getInteger("rank")).isEqualTo(i + 1);
        if (i > 0) {
          assertThat(f.getJsonObject("impact").getDouble("secondsPerSecond")).as("ranked by impact: " + all)
              .isLessThanOrEqualTo(list.get(i - 1).getJsonObject("impact").getDouble("secondsPerSecond"));
        }
        JsonObject evidence = f.getJsonObject("evidence");
        assertThat(evidence.getDouble("value")).as(all).isGreaterThan(evidence.getDouble("bar"));
        assertThat(evidence.getDouble("heldSeconds")).as("a decision recorded: " + all).isPositive();
        assertThat(evidence.getString("text")).startsWith(evidence.getString("metric") + " ");
        assertThat(f.getString("nextStep")).isNotBlank();
      }
    }
  }
}
