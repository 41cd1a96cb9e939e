package dev.bottlenose.tests.harness;

import dev.bottlenose.tests.harness.TargetJvm.Jdk;
import java.time.Duration;

/**
 * The usual end-to-end set-up: this JVM as a cluster member, a target JVM running a workload, and a
 * daemon process attached to it, sampling every 200 ms and serving on the bus (its {@link Metrics} enabled
 * over the bus). Closing stops all three.
 */
public final class AttachedTarget implements AutoCloseable {
  public final Bus bus;
  public final TargetJvm target;
  public final DaemonProcess daemon;
  public final Metrics metrics;

  private AttachedTarget(Bus bus, TargetJvm target, DaemonProcess daemon) {
    this.bus = bus;
    this.target = target;
    this.daemon = daemon;
    this.metrics = new Metrics(bus, daemon.id());
  }

  public static AttachedTarget start(Jdk jdk, Class<?> mainClass, String... jvmOptions) throws Exception {
    Bus bus = Bus.join();
    TargetJvm target = TargetJvm.start(jdk, mainClass, jvmOptions);
    DaemonProcess daemon = DaemonProcess.attach(target.pid(), bus.secret(), "--interval", "200ms");
    bus.awaitRunning(daemon);
    return new AttachedTarget(bus, target, daemon);
  }

  /** Sends the workload a command and waits for the line it prints when done (the known-answer workloads' protocol). */
  public String run(String command) throws Exception {
    target.send(command);
    return target.awaitLine("done", Duration.ofSeconds(60));
  }

  @Override
  public void close() throws Exception {
    daemon.close();
    target.close();
    bus.close();
  }
}
