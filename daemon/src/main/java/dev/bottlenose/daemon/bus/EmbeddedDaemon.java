package dev.bottlenose.daemon.bus;

import dev.bottlenose.bus.DaemonIds;
import dev.bottlenose.bus.Membership;
import dev.bottlenose.bus.PrivateDirectory;
import dev.bottlenose.daemon.session.SessionOptions;
import dev.bottlenose.daemon.session.TargetLock;
import dev.bottlenose.daemon.session.TargetSession;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A daemon served from the process that uses it: the target locked as a daemon process locks it, attached, and
 * served on that process's Vert.x under the same id, addresses and registry entry, so other members find and hold it
 * as they would a daemon process. A search command runs one for each target no daemon serves yet, and the service
 * one for each JVM it is asked to attach to; both save starting a second JVM and a second member of the cluster: a
 * JVM's start, a join, and the traffic between them are CPU taken from the cores the target runs on.
 *
 * <p>It lives as long as its process: when the process ends, however it ends, the lock goes and the agent, its
 * connection closed, removes everything this daemon inserted, as it does when a daemon process dies.
 */
public final class EmbeddedDaemon implements AutoCloseable {
  private static final long STOP_SECONDS = 10;
  private final long pid;
  private final TargetLock lock;
  private TargetSession session;
  private DaemonVerticle verticle;
  private Vertx vertx;
  private String deployment;

  private EmbeddedDaemon(long pid, TargetLock lock) {
    this.pid = pid;
    this.lock = lock;
  }

  /** Reserves {@code pid} for a daemon in this process; null when a daemon serves it already. */
  public static EmbeddedDaemon reserve(long pid) {
    TargetLock lock = TargetLock.tryAcquire(PrivateDirectory.ofUser().subdirectory("run"), pid);
    return lock == null ? null : new EmbeddedDaemon(pid, lock);
  }

  /**
   * Attaches to the target with the agent jar {@code agentJar}, as {@code requester} (the name the target's ledger
   * gives what it inserts: {@code search-<pid>}, {@code serve-<pid>}); blocks for seconds; a failure is thrown as
   * {@link TargetSession#attach} throws it, and the reservation stays until {@link #close}.
   */
  public void attach(Path agentJar, String requester, PrintStream warnings) {
    SessionOptions options = SessionOptions.defaults().withAgentJar(agentJar).withRequester(requester);
    session = TargetSession.attach(pid, options, warnings);
  }

  /**
   * Calls {@code listener} with the reason once the target has exited or its agent's connection is lost (at once when
   * that has happened already; twice when it happens during this call, so the listener must not mind a second call).
   */
  public void onEnd(java.util.function.Consumer<String> listener) {
    session.onEnd(listener);
    if (session.state() != TargetSession.State.RUNNING) {
      listener.accept(session.endReason());
    }
  }

  /** Serves the attached target on {@code vertx} as daemon {@code <host>-<pid>}, held by this process's member. */
  public Future<String> serve(Vertx vertx) {
    this.vertx = vertx;
    verticle = new DaemonVerticle(session, id(), DaemonIds.localHost(), Membership.self(vertx), () -> {});
    return vertx.deployVerticle(verticle).map(d -> {
      deployment = d;
      return id();
    });
  }

  /** Its daemon id, {@code <host>-<pid>}. */
  public String id() {
    return DaemonIds.of(DaemonIds.localHost(), pid);
  }

  /** The target's main class and Java version, once attached, as a daemon's announcement names them. */
  public String target() {
    return session.hello().mainClass() + ", Java " + session.hello().javaVersion();
  }

  /** The members other than this process's that hold it (another search, a service), which lose it on {@link #close}. */
  public List<String> otherHolders() {
    if (verticle == null) {
      return List.of();
    }
    String own = Membership.self(vertx);
    return verticle.holders().stream().filter(h -> !h.equals(own)).toList();
  }

  /** Stops serving (the registry entry goes), ends the session (the agent removes its probes) and frees the target. */
  @Override
  public void close() {
    try {
      if (deployment != null) {
        vertx.undeploy(deployment).toCompletionStage().toCompletableFuture().get(STOP_SECONDS, TimeUnit.SECONDS);
      }
    } catch (Exception e) {
      // the session is closed below all the same: the agent removes what this daemon inserted
    } finally {
      deployment = null;
      if (session != null) {
        session.close();
      }
      lock.close();
    }
  }
}
