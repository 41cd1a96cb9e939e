package dev.bottlenose.daemon.cli;

import dev.bottlenose.bus.DaemonIds;
import dev.bottlenose.bus.Cluster;
import dev.bottlenose.bus.ClusterSecret;
import dev.bottlenose.bus.ClusterSettings;
import dev.bottlenose.bus.PrivateDirectory;
import dev.bottlenose.daemon.bus.DaemonVerticle;
import dev.bottlenose.daemon.session.Sample;
import dev.bottlenose.daemon.session.SessionOptions;
import dev.bottlenose.daemon.session.TargetSession;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code daemon --pid N} or {@code daemon -- java …}: attaches to (or launches) the target, joins the
 * cluster, serves the event-bus protocol and prints one status line per interval until Ctrl-C or the
 * target exits (then it keeps answering for {@code --linger}, default 10s).
 */
final class DaemonCommand {
  static final Set<String> OPTIONS = Targets.with("id", "cluster-host", "cluster-port", "members", "linger", "held-by");
  private static final long START_TIMEOUT_SECONDS = 90;

  private DaemonCommand() {}

  static int run(Args a, Console console) throws Exception {
    a.atMostPositional(0);
    boolean launch = !a.rest().isEmpty();
    if (launch == a.has("pid")) {
      throw new UsageException(launch ? "give either --pid or a command after --, not both"
          : "'daemon' needs --pid N, or -- followed by a java command line to launch");
    }
    ClusterSettings settings = clusterSettings(a);
    Duration linger = a.duration("linger", Duration.ofSeconds(10));
    String host = DaemonIds.localHost();
    String id = a.has("id") ? checkedId(a.option("id", null)) : null;
    String heldBy = a.option("held-by", null);
    SessionOptions options = Targets.options(a, "daemon");
    TargetLock lock = launch ? null : TargetLock.acquire(PrivateDirectory.ofUser().subdirectory("run"), a.pid());
    TargetSession session;
    try {
      session = launch ? TargetSession.launch(a.rest(), options, console.out(), console.err())
          : TargetSession.attach(a.pid(), options, console.err());
    } catch (RuntimeException e) {
      if (lock != null) {
        lock.close();
      }
      throw e;
    }
    String daemonId = id != null ? id : DaemonIds.of(host, session.pid());
    Vertx vertx = startCluster(settings, session);
    AtomicBoolean stopped = new AtomicBoolean();
    Runnable stop = () -> {
      boolean running = session.state() == TargetSession.State.RUNNING;
      if (stop(vertx, session, stopped)) {
        console.out().println("daemon " + daemonId + " stopped" + (running ? "; the agent removed its probes" : ""));
      }
    };
    Runtime.getRuntime().addShutdownHook(new Thread(stop, "bottlenose-daemon-stop"));
    CountDownLatch ended = new CountDownLatch(1);
    AtomicBoolean unheld = new AtomicBoolean();
    Runnable letGo = () -> {
      console.out().println("daemon " + daemonId + ": nobody holds it any more (what started it let go or left the"
          + " cluster); stopping");
      unheld.set(true);
      ended.countDown();
    };
    vertx.deployVerticle(new DaemonVerticle(session, daemonId, host, heldBy, letGo)).toCompletionStage()
        .toCompletableFuture().get(START_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    console.out().println("daemon " + daemonId + " serving process " + session.pid() + " ("
        + session.hello().mainClass() + ", Java " + session.hello().javaVersion() + ") on " + settings);
    session.values().onSample(s -> console.out().println(statusLine(session, s)));
    session.onEnd(reason -> {
      console.out().println("daemon " + daemonId + ": " + reason + "; answering for " + Durations.format(linger)
          + " more");
      ended.countDown();
    });
    ended.await();
    if (!unheld.get()) {
      Thread.sleep(linger.toMillis());
    }
    stop.run();
    if (lock != null) {
      lock.close();
    }
    return 0;
  }

  private static Vertx startCluster(ClusterSettings settings, TargetSession session) throws Exception {
    try {
      return Cluster.start(settings).toCompletionStage().toCompletableFuture().get(START_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (Exception e) {
      session.close();
      throw e;
    }
  }

  static ClusterSettings clusterSettings(Args a) {
    String host = a.option("cluster-host", ClusterSettings.LOOPBACK);
    List<String> members = a.has("members") ? Arrays.asList(a.option("members", "").split(",")) : List.of(host);
    try {
      return new ClusterSettings(host, a.intOption("cluster-port", ClusterSettings.DEFAULT_PORT), members,
          ClusterSecret.load());
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
  }

  private static boolean stop(Vertx vertx, TargetSession session, AtomicBoolean stopped) {
    if (!stopped.compareAndSet(false, true)) {
      return false;
    }
    try {
      vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      System.err.println("bottlenose: leaving the cluster failed: " + e.getMessage());
    }
    session.close();
    return true;
  }

  private static String statusLine(TargetSession session, Sample s) {
    StringBuilder sb = new StringBuilder(LocalTime.now().truncatedTo(ChronoUnit.SECONDS).toString());
    sb.append("  pid ").append(session.pid()).append("  probes ").append(s.probes().size()).append("  ")
        .append(ValueFormat.cost(s.cost()));
    s.probes().forEach(v -> sb.append("  | ").append(v.probeId()).append(' ').append(v.kind()).append(' ')
        .append(ValueFormat.probe(v)));
    return sb.toString();
  }

  private static String checkedId(String id) {
    if (!id.matches("[A-Za-z0-9_-]+")) {
      throw new UsageException("--id '" + id + "' may only use letters, digits, '-' and '_'");
    }
    return id;
  }

}
