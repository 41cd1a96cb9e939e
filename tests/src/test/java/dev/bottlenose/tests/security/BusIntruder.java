package dev.bottlenose.tests.security;

import dev.bottlenose.bus.Addresses;
import dev.bottlenose.bus.Cluster;
import dev.bottlenose.bus.ClusterSettings;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.MessageCodec;
import io.vertx.core.eventbus.impl.CodecManager;
import io.vertx.core.eventbus.impl.clustered.ClusteredMessage;
import io.vertx.core.json.JsonObject;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * What another local user tries against the event bus, run by {@code IntruderTest} as uid 65534. Arguments:
 * the daemon id and a {@code /Code} method. It
 * <ol>
 *   <li>sends raw event-bus frames (an {@code enable} of a probe on the method, and a forged {@code exited}
 *       that would stop a search) to every listening loopback TCP port it finds in /proc/net/tcp{,6};</li>
 *   <li>joins "the" cluster as a member of its own (with its own user's secret), lists the daemons and asks
 *       the daemon for the probe.</li>
 * </ol>
 * It prints one line per outcome; {@code SERVED …} means the attack got an answer.
 */
public final class BusIntruder {
  private BusIntruder() {}

  public static void main(String[] args) throws Exception {
    String daemonId = args[0];
    JsonObject enable = new JsonObject().put("focus", args[1]).put("kind", "wall_inclusive").put("requester", "intruder");
    List<Integer> ports = listeningLoopbackPorts();
    int written = 0;
    for (int port : ports) {
      written += rawFrames(port, daemonId, enable) ? 1 : 0;
    }
    System.out.println("raw frames written to " + written + " of " + ports.size() + " listening loopback ports");

    Vertx member = Cluster.start(ClusterSettings.loopback()).toCompletionStage().toCompletableFuture().get(90, TimeUnit.SECONDS);
    try {
      report("list", () -> member.eventBus().<JsonObject>request(Addresses.DAEMONS_LIST, new JsonObject(),
          new DeliveryOptions().setSendTimeout(5000)).toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS).body());
      report("enable", () -> member.eventBus().<JsonObject>request(Addresses.enable(daemonId), enable,
          new DeliveryOptions().setSendTimeout(5000)).toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS).body());
    } finally {
      member.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
    System.out.println("done");
    System.exit(0);
  }

  private interface Attempt {
    JsonObject call() throws Exception;
  }

  private static void report(String what, Attempt attempt) {
    try {
      System.out.println("SERVED " + what + ": " + attempt.call().encode());
    } catch (Exception e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      System.out.println("refused " + what + ": " + cause);
    }
  }

  /** An enable request and a forged {@code exited}, as a member would frame them, written to {@code port}. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static boolean rawFrames(int port, String daemonId, JsonObject enable) {
    MessageCodec codec = CodecManager.JSON_OBJECT_MESSAGE_CODEC;
    ClusteredMessage request = new ClusteredMessage("intruder", Addresses.enable(daemonId), MultiMap.caseInsensitiveMultiMap(),
        enable, codec, true, null);
    ClusteredMessage exited = new ClusteredMessage("intruder", Addresses.exited(daemonId), MultiMap.caseInsensitiveMultiMap(),
        new JsonObject().put("endReason", "forged by the intruder"), codec, false, null);
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 300);
      s.setSoTimeout(300);
      OutputStream out = s.getOutputStream();
      out.write(request.encodeToWire().getBytes());
      out.write(exited.encodeToWire().getBytes());
      out.flush();
      Thread.sleep(100);
      return true;
    } catch (Exception e) {
      return false;
    }
  }

  /** The ports in state LISTEN on 127.0.0.1 (also as ::ffff:127.0.0.1), ::1 or any address, from /proc/net/tcp{,6}. */
  static List<Integer> listeningLoopbackPorts() throws Exception {
    TreeSet<Integer> ports = new TreeSet<>();
    for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
      Path p = Path.of(table);
      if (!Files.isReadable(p)) {
        continue;
      }
      for (String line : Files.readAllLines(p).subList(1, Files.readAllLines(p).size())) {
        String[] f = line.trim().split("\\s+");
        if (f.length < 4 || !"0A".equals(f[3])) {
          continue;
        }
        String[] local = f[1].split(":");
        String address = local[0];
        boolean reachable = address.equals("0100007F") || address.chars().allMatch(c -> c == '0')
            || address.equals("00000000000000000000000001000000") || address.equals("0000000000000000FFFF00000100007F");
        if (reachable) {
          ports.add(Integer.parseInt(local[1], 16));
        }
      }
    }
    return new ArrayList<>(ports);
  }
}
