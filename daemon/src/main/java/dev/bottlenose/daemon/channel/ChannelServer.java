package dev.bottlenose.daemon.channel;

import dev.bottlenose.agent.wire.Frames;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** The daemon's end before the agent connects: a loopback listener on an ephemeral port and a random token. */
public final class ChannelServer implements AutoCloseable {
  private static final int POLL_MILLIS = 200;
  private final ServerSocket server;
  private final String token;

  private ChannelServer(ServerSocket server, String token) {
    this.server = server;
    this.token = token;
  }

  public static ChannelServer open() {
    try {
      byte[] random = new byte[16];
      new SecureRandom().nextBytes(random);
      return new ChannelServer(new ServerSocket(0, 4, InetAddress.getLoopbackAddress()),
          HexFormat.of().formatHex(random));
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

  /**
   * Waits for the agent to connect and say hello with the right token. Connections with a wrong token
   * are closed and ignored. Fails when {@code timeout} passes or {@code targetAlive} turns false; the
   * message then ends with {@code hint} (e.g. the target's last stderr lines).
   */
  public AgentChannel accept(Duration timeout, long heartbeatMillis, BooleanSupplier targetAlive,
      Supplier<String> hint) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (!targetAlive.getAsBoolean()) {
        throw new ChannelException("the target exited before its agent connected" + hintText(hint));
      }
      Socket socket = acceptOne();
      if (socket != null) {
        AgentChannel channel = greet(socket, deadline, heartbeatMillis);
        if (channel != null) {
          return channel;
        }
      }
    }
    throw new ChannelException("the agent did not connect within " + timeout.toMillis() + " ms" + hintText(hint));
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

  private AgentChannel greet(Socket socket, long deadline, long heartbeatMillis) {
    try {
      socket.setSoTimeout((int) Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
      InputStream in = new BufferedInputStream(socket.getInputStream());
      Map<String, Object> hello = Frames.read(in);
      if (!"hello".equals(hello.get("event")) || !token.equals(hello.get("token"))) {
        socket.close();
        return null;
      }
      socket.setSoTimeout(0);
      socket.setTcpNoDelay(true);
      return AgentChannel.start(socket, in, new BufferedOutputStream(socket.getOutputStream()), Hello.from(hello),
          heartbeatMillis);
    } catch (IOException | RuntimeException e) {
      closeQuietly(socket);
      return null;
    }
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
