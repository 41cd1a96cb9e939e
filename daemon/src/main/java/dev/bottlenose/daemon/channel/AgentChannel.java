package dev.bottlenose.daemon.channel;

import dev.bottlenose.agent.wire.Bye;
import dev.bottlenose.agent.wire.ErrorFrame;
import dev.bottlenose.agent.wire.Frames;
import dev.bottlenose.agent.wire.Hello;
import dev.bottlenose.agent.wire.Ping;
import dev.bottlenose.agent.wire.Request;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The daemon's end of an open channel: numbered requests answered through futures, a ping every
 * heartbeat/3, unsolicited events handed to listeners, and one close notification when the stream ends.
 */
public final class AgentChannel implements AutoCloseable {
  public static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
  /**
   * An answer that takes longer than this is noted on standard error with its op: the agent serves one request at a
   * time, so one slow request holds up the reads behind it, and the search measures nothing meanwhile.
   */
  static final Duration SLOW_ANSWER = Duration.ofSeconds(5);
  private static final long BYE_WAIT_MILLIS = 2000;
  private static final String CLOSED_BY_DAEMON = "closed by the daemon";

  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;
  private final Hello hello;
  private final AtomicLong ids = new AtomicLong();
  private final Map<Long, CompletableFuture<Map<String, Object>>> pending = new ConcurrentHashMap<>();
  private final List<Consumer<Map<String, Object>>> eventListeners = new CopyOnWriteArrayList<>();
  private final CompletableFuture<String> closed = new CompletableFuture<>();
  private final ScheduledExecutorService heartbeat;
  private volatile boolean closing;

  private AgentChannel(Socket socket, InputStream in, OutputStream out, Hello hello) {
    this.socket = socket;
    this.in = in;
    this.out = out;
    this.hello = hello;
    this.heartbeat = Executors.newSingleThreadScheduledExecutor(r -> daemonThread(r, "bottlenose-heartbeat"));
  }

  static AgentChannel start(Socket socket, InputStream in, OutputStream out, Hello hello, long heartbeatMillis) {
    AgentChannel channel = new AgentChannel(socket, in, out, hello);
    daemonThread(channel::readLoop, "bottlenose-channel-reader").start();
    long period = Math.max(1, heartbeatMillis / 3);
    channel.heartbeat.scheduleAtFixedRate(channel::ping, period, period, TimeUnit.MILLISECONDS);
    return channel;
  }

  public Hello hello() {
    return hello;
  }

  public boolean isOpen() {
    return !closed.isDone();
  }

  /** Completes with the reason when the channel closes (EOF, I/O error, or {@link #close()}). */
  public CompletableFuture<String> closed() {
    return closed;
  }

  /** Adds a listener for unsolicited events such as {@code changes}; called on the reader thread. */
  public void onEvent(Consumer<Map<String, Object>> listener) {
    eventListeners.add(listener);
  }

  /**
   * Sends a request; the future fails with {@link AgentException} on {@code ok:false} and with
   * {@link ChannelException} when the channel is closed or the answer takes longer than the timeout.
   */
  public CompletableFuture<Map<String, Object>> request(String op, Map<String, ?> arguments) {
    long id = ids.incrementAndGet();
    CompletableFuture<Map<String, Object>> answer = new CompletableFuture<>();
    pending.put(id, answer);
    Map<String, Object> frame = new Request(id, op, new LinkedHashMap<>(arguments)).toMap();
    if (closed.isDone()) {
      failClosed(answer);
    } else {
      send(frame, answer);
    }
    long sent = System.nanoTime();
    return answer.orTimeout(REQUEST_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
        .whenComplete((r, e) -> {
          pending.remove(id);
          long nanos = System.nanoTime() - sent;
          if (nanos > SLOW_ANSWER.toNanos() && !closing) {
            System.err.printf(java.util.Locale.ROOT, "[bottlenose] the agent of pid %d took %.1f s to answer %s%s%n",
                hello.pid(), nanos / 1e9, op, e == null ? "" : " (" + e.getClass().getSimpleName() + ")");
          }
        });
  }

  /** Sends a request and waits for its answer. */
  public Map<String, Object> call(String op, Map<String, ?> arguments) {
    try {
      return request(op, arguments).get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ChannelException("interrupted while waiting for the agent's answer to " + op, e);
    } catch (ExecutionException e) {
      throw unwrap(op, e.getCause());
    }
  }

  private static RuntimeException unwrap(String op, Throwable cause) {
    if (cause instanceof AgentException || cause instanceof ChannelException) {
      return (RuntimeException) cause;
    }
    if (cause instanceof TimeoutException) {
      return new ChannelException("the agent did not answer " + op + " within " + REQUEST_TIMEOUT.toSeconds() + " s");
    }
    return new ChannelException(op + " failed: " + cause, cause);
  }

  private void send(Map<String, Object> frame, CompletableFuture<?> answer) {
    try {
      synchronized (out) {
        Frames.write(out, frame);
      }
    } catch (IOException e) {
      answer.completeExceptionally(new ChannelException("cannot send to the agent: " + e.getMessage(), e));
      shutdown("write failed: " + e.getMessage());
    }
  }

  private void ping() {
    if (isOpen()) {
      request(Ping.OP, new Ping().toMap()).exceptionally(e -> null);
    }
  }

  private void readLoop() {
    try {
      while (true) {
        dispatch(Frames.read(in));
      }
    } catch (EOFException e) {
      shutdown("the agent closed the channel");
    } catch (IOException | RuntimeException e) {
      shutdown("channel read failed: " + e.getMessage());
    }
  }

  private void dispatch(Map<String, Object> frame) {
    Object re = frame.get("re");
    if (re instanceof Number n) {
      CompletableFuture<Map<String, Object>> answer = pending.get(n.longValue());
      if (answer == null) {
        return;
      }
      if (ErrorFrame.isError(frame)) {
        ErrorFrame error = ErrorFrame.fromMap(frame);
        answer.completeExceptionally(new AgentException(error.code(), error.message()));
      } else {
        answer.complete(frame);
      }
    } else if (frame.get("event") != null) {
      eventListeners.forEach(l -> deliver(l, frame));
    }
  }

  private static void deliver(Consumer<Map<String, Object>> listener, Map<String, Object> event) {
    try {
      listener.accept(event);
    } catch (RuntimeException e) {
      System.err.println("[bottlenose] event listener failed: " + e);
    }
  }

  private void shutdown(String reason) {
    if (!closed.complete(closing ? CLOSED_BY_DAEMON : reason)) {
      return;
    }
    heartbeat.shutdownNow();
    try {
      socket.close();
    } catch (IOException e) {
      // the stream is over either way
    }
    for (CompletableFuture<Map<String, Object>> answer : pending.values()) {
      failClosed(answer);
    }
  }

  private void failClosed(CompletableFuture<?> answer) {
    String reason = closed.getNow("closed");
    answer.completeExceptionally(new ChannelException("the channel to the agent is closed: " + reason));
  }

  /** Says bye (the agent removes this session's probes), waits briefly for the answer, and closes. */
  @Override
  public void close() {
    closing = true;
    if (isOpen()) {
      try {
        request(Bye.OP, new Bye().toMap()).get(BYE_WAIT_MILLIS, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (ExecutionException | TimeoutException e) {
        // the agent removes this session's probes when the socket closes, too
      }
    }
    shutdown(CLOSED_BY_DAEMON);
  }

  private static Thread daemonThread(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }
}
