package dev.bottlenose.daemon.cli;

import dev.bottlenose.bus.DaemonIds;
import dev.bottlenose.bus.Cluster;
import dev.bottlenose.bus.ClusterSecret;
import dev.bottlenose.bus.ClusterSettings;
import dev.bottlenose.bus.PrivateDirectory;
import dev.bottlenose.daemon.bus.DaemonVerticle;
import dev.bottlenose.daemon.session.Sample;
import dev.bottlenose.daemon.session.SessionOptions;
import dev.bottlenose.daemon.session.TargetLock;
import dev.bottlenose.daemon.session.TargetSession;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import dev.bottlenose.cli.Durations;
import dev.bottlenose.cli.UsageException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code daemon --pid N} or {@code daemon -- java …}: attaches to (or launches) the target, joins the
 * cluster, serves the event-bus protocol and prints one status line per interval until Ctrl-C or the
 * target exits (then it keeps answering for {@code --linger}, default 10s).
 */
@Command(name = "daemon", description = {"attach (--pid N) or launch with the agent (-- java ...), join the cluster,"
    + " serve until Ctrl-C or exit",
    "every member needs the same cluster secret: ~/.bottlenose/cluster.secret or BOTTLENOSE_CLUSTER_SECRET"})
final class DaemonCommand implements Callable<Integer> {
  private static final long START_TIMEOUT_SECONDS = 90;

  @ParentCommand
  Main main;

  @Spec
  CommandSpec spec;

  @Mixin
  TargetOptions target;

  @Option(names = "--id", paramLabel = "ID", description = "the daemon's id (default: host-pid)")
  String id;

  @Option(names = "--cluster-host", paramLabel = "H", description = "the address to join the cluster on (default: "
      + ClusterSettings.LOOPBACK + ")")
  String clusterHost = ClusterSettings.LOOPBACK;

  @Option(names = "--cluster-port", paramLabel = "P", description = "the cluster port (default: "
      + ClusterSettings.DEFAULT_PORT + ")")
  int clusterPort = ClusterSettings.DEFAULT_PORT;

  @Option(names = "--members", paramLabel = "h1,h2:5702", description = "the cluster's members (default: the cluster host)")
  String members;

  @Option(names = "--linger", paramLabel = "DURATION", description = "how long to keep answering after the target"
      + " exits (default: 10s)")
  Duration linger = Duration.ofSeconds(10);

  /** {@code --held-by -}: the holder's node comes on standard input, once the process that started the daemon joined. */
  static final String HOLDER_ON_STDIN = "-";

  @Option(names = "--held-by", paramLabel = "NODE", description = {"stop when that member, and any other holder, lets"
      + " go or leaves",
      "'-': attach now, read the member's node from the first line of standard input, then join (stop if the input"
          + " ends first): how a command starts its daemon while it joins the cluster"})
  String heldBy;

  @Parameters(paramLabel = "COMMAND", description = "after --: the java command line to launch with the agent")
  java.util.List<String> commandLine = new java.util.ArrayList<>();

  @Override
  public Integer call() throws Exception {
    Console console = main.console;
    if (!commandLine.isEmpty() && !spec.commandLine().getParseResult().originalArgs().contains("--")) {
      throw new UsageException("'daemon' got unexpected argument '" + commandLine.get(0) + "'");
    }
    boolean launch = !commandLine.isEmpty();
    if (launch == target.hasPid()) {
      throw new UsageException(launch ? "give either --pid or a command after --, not both"
          : "'daemon' needs --pid N, or -- followed by a java command line to launch");
    }
    ClusterSettings settings = clusterSettings();
    String host = DaemonIds.localHost();
    String id = this.id != null ? checkedId(this.id) : null;
    SessionOptions options = target.sessionOptions("daemon");
    TargetLock lock = launch ? null : TargetLock.acquire(PrivateDirectory.ofUser().subdirectory("run"), target.pid());
    // Joining the cluster and attaching each take seconds and need nothing of each other: both at once. A daemon
    // whose holder is still joining joins after it: two members forming a cluster at once take seconds longer.
    CompletableFuture<Vertx> joining = HOLDER_ON_STDIN.equals(heldBy)
        ? holderFromStdin().thenCompose(node -> {
          heldBy = node;
          return Cluster.start(settings).toCompletionStage();
        })
        : Cluster.start(settings).toCompletionStage().toCompletableFuture();
    TargetSession session;
    try {
      session = launch ? TargetSession.launch(commandLine, options, console.out(), console.err())
          : TargetSession.attach(target.pid(), options, console.err());
    } catch (RuntimeException e) {
      joining.thenAccept(Vertx::close);
      if (lock != null) {
        lock.close();
      }
      throw e;
    }
    String daemonId = id != null ? id : DaemonIds.of(host, session.pid());
    Vertx vertx = awaitCluster(joining, session);
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
        + session.hello().mainClass() + ", Java " + session.hello().javaVersion() + ") on " + settings + "; "
        + route(session));
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

  /** The first line of standard input, read on a thread of its own; fails when the input ends first. */
  private static CompletableFuture<String> holderFromStdin() {
    CompletableFuture<String> node = new CompletableFuture<>();
    Thread reader = new Thread(() -> {
      try {
        String line = new java.io.BufferedReader(new java.io.InputStreamReader(System.in,
            java.nio.charset.StandardCharsets.UTF_8)).readLine();
        if (line == null || line.isBlank()) {
          node.completeExceptionally(new IllegalStateException("the process that started this daemon ended before"
              + " it joined the cluster"));
        } else {
          node.complete(line.strip());
        }
      } catch (java.io.IOException e) {
        node.completeExceptionally(e);
      }
    }, "bottlenose-holder");
    reader.setDaemon(true);
    reader.start();
    return node;
  }

  private static Vertx awaitCluster(CompletableFuture<Vertx> joining, TargetSession session) throws Exception {
    try {
      return joining.get(START_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (Exception e) {
      session.close();
      joining.thenAccept(Vertx::close);
      if (e instanceof java.util.concurrent.ExecutionException && e.getCause() instanceof Exception cause) {
        throw cause;
      }
      throw e;
    }
  }

  private ClusterSettings clusterSettings() {
    List<String> members = this.members != null ? Arrays.asList(this.members.split(",")) : List.of(clusterHost);
    try {
      return new ClusterSettings(clusterHost, clusterPort, members, ClusterSecret.load());
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

  /** Which way the agent came into the target, for the serving line. */
  static String route(TargetSession session) {
    return switch (session.route()) {
      case WAITING_AGENT -> "connected to the waiting agent of pid " + session.pid() + " (no agent loaded through the"
          + " Attach API)";
      case LAUNCHED -> "launched with the agent on its command line";
      case ATTACHED -> "attached through the Attach API";
    };
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
