package dev.bottlenose.daemon.channel;

import dev.bottlenose.agent.wire.Frames;
import dev.bottlenose.agent.wire.Hello;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The daemon's end before the agent connects: a loopback listener on an ephemeral port and a random token.
 * A connection is taken only from a socket the target's user owns (read from the kernel's socket tables
 * before a byte of it is read) whose first frame is a hello with the token (compared in constant time);
 * once that agent is there, nothing listens any more.
 */
public final class ChannelServer implements AutoCloseable {
  private static final int POLL_MILLIS = 200;
  /** How long a connection from the target's user may take to say hello before the next one is taken. */
  static final int HELLO_MILLIS = 5000;
  private final ServerSocket server;
  private final String token;
  private final int targetUid;
  private final Set<String> refusals = new LinkedHashSet<>();

  private ChannelServer(ServerSocket server, String token, int targetUid) {
    this.server = server;
    this.token = token;
    this.targetUid = targetUid;
  }

  /** A listener for an agent run by this process's user (a target this daemon launches, or one of its own). */
  public static ChannelServer open() {
    return open(Uids.self());
  }

  /** A listener that takes the agent only from a process of {@code targetUid}. */
  public static ChannelServer open(int targetUid) {
    try {
      byte[] random = new byte[16];
      new SecureRandom().nextBytes(random);
      return new ChannelServer(new ServerSocket(0, 4, InetAddress.getLoopbackAddress()),
          HexFormat.of().formatHex(random), targetUid);
    } catch (IOException e) {
      throw new ChannelException("cannot listen on 127.0.0.1: " + e.getMessage(), e);
    }
  }

  public int port() {
    return server.getLocalPort();
  }

  public String token() {
    return token;
  }

  /** The uid a connecting agent's process must run as. */
  public int targetUid() {
    return targetUid;
  }

  /** Whether the listener is still open (it closes once the agent has connected). */
  public boolean isListening() {
    return !server.isClosed();
  }

  /** Why connections were turned away so far, one line per distinct reason. */
  public synchronized List<String> refusals() {
    return new ArrayList<>(refusals);
  }

  /**
   * Waits for the agent to connect and say hello with the right token, then stops listening. Connections
   * from another user's socket are closed unread; those with a wrong token are closed and ignored. Fails when
   * {@code timeout} passes or {@code targetAlive} turns false; the message then ends with {@code hint} (e.g.
   * the target's last stderr lines).
   */
  public AgentChannel accept(Duration timeout, long heartbeatMillis, BooleanSupplier targetAlive,
      Supplier<String> hint) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (!targetAlive.getAsBoolean()) {
        throw new ChannelException("the target exited before its agent connected" + refusalText() + hintText(hint));
      }
      Socket socket = acceptOne();
      if (socket != null && fromTargetUser(socket)) {
        AgentChannel channel = greet(socket, deadline, heartbeatMillis);
        if (channel != null) {
          close();
          return channel;
        }
      }
    }
    throw new ChannelException("the agent did not connect within " + timeout.toMillis() + " ms" + refusalText()
        + hintText(hint));
  }

  private Socket acceptOne() {
    try {
      server.setSoTimeout(POLL_MILLIS);
      return server.accept();
    } catch (SocketTimeoutException e) {
      return null;
    } catch (IOException e) {
      throw new ChannelException("listening for the agent failed: " + e.getMessage(), e);
    }
  }

  /** Whether the connecting socket belongs to the target's user; if not it is closed before anything is read. */
  private boolean fromTargetUser(Socket socket) {
    InetSocketAddress peer = (InetSocketAddress) socket.getRemoteSocketAddress();
    InetSocketAddress local = (InetSocketAddress) socket.getLocalSocketAddress();
    OptionalInt uid;
    try {
      uid = LoopbackPeers.ownerUid(peer, local);
    } catch (ChannelException e) {
      refuse(socket, e.getMessage());
      return false;
    }
    if (uid.isEmpty()) {
      refuse(socket, "a connection from port " + peer.getPort() + " whose owner the kernel does not list");
      return false;
    }
    if (uid.getAsInt() != targetUid) {
      refuse(socket, "a connection from uid " + uid.getAsInt() + " (the target runs as uid " + targetUid + ")");
      return false;
    }
    return true;
  }

  private void refuse(Socket socket, String why) {
    closeQuietly(socket);
    boolean first;
    synchronized (this) {
      first = refusals.add(why);
    }
    if (first) {
      System.err.println("bottlenose: agent channel on port " + port() + " refused " + why);
    }
  }

  private AgentChannel greet(Socket socket, long deadline, long heartbeatMillis) {
    try {
      long left = Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
      socket.setSoTimeout((int) Math.min(left, HELLO_MILLIS));
      InputStream in = new BufferedInputStream(socket.getInputStream());
      Map<String, Object> frame = Frames.read(in);
      Hello hello = Hello.isHello(frame) ? Hello.fromMap(frame) : null;
      if (hello == null || !tokenMatches(hello.token())) {
        socket.close();
        return null;
      }
      socket.setSoTimeout(0);
      socket.setTcpNoDelay(true);
      return AgentChannel.start(socket, in, new BufferedOutputStream(socket.getOutputStream()), hello, heartbeatMillis);
    } catch (IOException | RuntimeException e) {
      closeQuietly(socket);
      return null;
    }
  }

  /** Whether {@code presented} is the token, in time that does not depend on where they differ. */
  boolean tokenMatches(Object presented) {
    return presented instanceof String text && MessageDigest.isEqual(token.getBytes(StandardCharsets.UTF_8),
        text.getBytes(StandardCharsets.UTF_8));
  }

  private String refusalText() {
    List<String> seen = refusals();
    return seen.isEmpty() ? "" : " (refused " + String.join("; ", seen) + ")";
  }

  private static String hintText(Supplier<String> hint) {
    String text = hint.get();
    return text == null || text.isBlank() ? "" : "; " + text;
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // already failed; the socket is useless either way
    }
  }

  @Override
  public void close() {
    try {
      server.close();
    } catch (IOException e) {
      // closing a listener that already failed changes nothing
    }
  }
}
