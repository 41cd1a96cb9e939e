package dev.bottlenose.agent;

import dev.bottlenose.agent.sources.ToolThreads;
import dev.bottlenose.agent.wire.Handover;
import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The agent loaded without options ({@code -javaagent:bottlenose-agent.jar}, or {@code =standalone}): it starts
 * nothing but one daemon thread, {@code bottlenose-wait}, blocked accepting on a Unix-domain socket,
 * {@code <private run directory>/agents/<pid>.sock} ({@code 0600}, in a {@code 0700} directory,
 * {@link RunDirectory}), until a daemon hands it the option string an attach would pass. A connection is taken
 * only from a process of this JVM's own user (the kernel's {@code SO_PEERCRED}), before a byte of it is read;
 * its one line ({@link Handover}) goes where {@code agentmain}'s options go ({@link AgentMain#load}) and is
 * answered {@code ok} or {@code error: …}. It keeps waiting for further daemons, each one more session. The
 * socket file goes when the JVM exits; a stale one (nobody listening) is replaced at start.
 */
final class WaitingAgent {
  static final String THREAD_NAME = "bottlenose-wait";
  /** The hello's {@code loadedBy} of a session a waiting agent opened. */
  static final String LOADED_BY = "waiting";
  /** How long a connected peer has to send its line, and the agent to write its answer. */
  static final long LINE_TIMEOUT_MILLIS = 5000;
  /** The pause after {@code accept} itself failed (no file descriptor left, say), so a failure does not spin. */
  static final long RETRY_MILLIS = 1000;
  static final Set<PosixFilePermission> SOCKET_MODE = PosixFilePermissions.fromString("rw-------");
  private static final AtomicBoolean STARTED = new AtomicBoolean();
  /** This JVM's waiting agent once it listens; guarded by {@link #STARTED}, as {@link #jvmExiting} is. */
  private static WaitingAgent current;
  private static boolean jvmExiting;

  /** Takes a daemon's option string as {@code agentmain} would; throws what is wrong with it. */
  interface Loader {
    void load(String options) throws Exception;
  }

  private final ServerSocketChannel server;
  private final Path socket;
  private final Object fileKey;
  private final UserPrincipal owner;
  private final Loader loader;

  private WaitingAgent(ServerSocketChannel server, Path socket, Object fileKey, UserPrincipal owner, Loader loader) {
    this.server = server;
    this.socket = socket;
    this.fileKey = fileKey;
    this.owner = owner;
    this.loader = loader;
  }

  /**
   * Starts waiting, once per JVM (a second load without options changes nothing), and returns at once: the
   * {@value #THREAD_NAME} thread makes the socket, then accepts. When the socket cannot be made it prints the one
   * {@code [bottlenose] agent not started: …} line and ends.
   */
  static void start(Instrumentation instrumentation) {
    if (!STARTED.compareAndSet(false, true)) {
      AgentLog.line("the agent already waits for a daemon in this JVM");
      return;
    }
    Thread thread = new Thread(new Runnable() {
      @Override
      public void run() {
        listenAndServe(instrumentation);
      }
    }, THREAD_NAME);
    thread.setDaemon(true);
    thread.start();
  }

  private static void listenAndServe(Instrumentation instrumentation) {
    try {
      Runtime.getRuntime().addShutdownHook(new Thread(new Runnable() {
        @Override
        public void run() {
          onExit();
        }
      }, THREAD_NAME + "-end"));
    } catch (IllegalStateException alreadyExiting) {
      return; // the program ended before the agent began to wait
    }
    WaitingAgent agent;
    try {
      agent = listen(RunDirectory.agents(), ownPid(), new AgentLoader(instrumentation));
    } catch (Throwable t) {
      AgentMain.report(t);
      return;
    }
    synchronized (STARTED) {
      if (jvmExiting) {
        agent.close();
        return;
      }
      current = agent;
    }
    agent.serveUntilClosed();
  }

  /** The shutdown hook: the socket file goes with the JVM (made after this, it is closed at once). */
  private static void onExit() {
    synchronized (STARTED) {
      jvmExiting = true;
      if (current != null) {
        current.close();
      }
    }
  }

  /** This process's pid, from {@code /proc/self} (cheaper at start-up than {@link ProcessHandle}). */
  private static long ownPid() {
    try {
      return Long.parseLong(Files.readSymbolicLink(Path.of("/proc/self")).toString());
    } catch (IOException | RuntimeException e) {
      return ProcessHandle.current().pid();
    }
  }

  /** Hands a daemon's options to {@link AgentMain#load}, as {@code agentmain} would. */
  private static final class AgentLoader implements Loader {
    private final Instrumentation instrumentation;

    AgentLoader(Instrumentation instrumentation) {
      this.instrumentation = instrumentation;
    }

    @Override
    public void load(String options) throws Exception {
      AgentMain.load(options, instrumentation, LOADED_BY);
      // JFR's thread exclusion is reachable now: the recording about to start need not sample this thread
      ToolThreads.exclude(Thread.currentThread());
    }
  }

  /**
   * Listens on {@code <directory>/<pid>.sock}, replacing a stale socket file; does not accept yet. The directory
   * must be private already ({@link RunDirectory#agents}).
   */
  static WaitingAgent listen(Path directory, long pid, Loader loader) throws IOException {
    checkPeerCredentials();
    Path socket = directory.resolve(pid + ".sock");
    replaceStale(socket);
    ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    boolean bound = false;
    try {
      server.bind(UnixDomainSocketAddress.of(socket));
      bound = true;
      Files.setPosixFilePermissions(socket, SOCKET_MODE);
      PosixFileAttributes file = Files.readAttributes(socket, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      return new WaitingAgent(server, socket, file.fileKey(), file.owner(), loader);
    } catch (IOException | RuntimeException e) {
      server.close();
      if (bound) {
        Files.deleteIfExists(socket);
      }
      int length = socket.toString().getBytes(StandardCharsets.UTF_8).length;
      throw new IOException("cannot listen on " + socket + ": " + e.getMessage() + (length < 100 ? ""
          : " (a Unix-domain socket's path may have about 100 bytes; set " + RunDirectory.HOME_ENV + " to a shorter"
              + " directory)"), e);
    }
  }

  /** The socket file. */
  Path socket() {
    return socket;
  }

  /** An unstarted {@value #THREAD_NAME} daemon thread that accepts until {@link #close}. */
  Thread thread() {
    Thread thread = new Thread(new Runnable() {
      @Override
      public void run() {
        serveUntilClosed();
      }
    }, THREAD_NAME);
    thread.setDaemon(true);
    return thread;
  }

  /** Accepts and handles connections one at a time until {@link #close}; never throws. */
  void serveUntilClosed() {
    try {
      serve();
    } catch (Throwable t) {
      AgentLog.line("stopped waiting for daemons on " + socket + ": " + t);
    }
  }

  private void serve() {
    while (server.isOpen()) {
      SocketChannel channel;
      try {
        channel = server.accept();
      } catch (ClosedChannelException e) {
        return;
      } catch (IOException | RuntimeException e) {
        AgentLog.line("accepting on " + socket + " failed: " + e);
        pause();
        continue;
      }
      handle(channel);
    }
  }

  /**
   * One connection, closed on return: a peer of another user (or of unknown credentials) is dropped unread; a
   * peer that closes without a line only looked whether the agent waits; a line is handed to the loader and
   * answered. Returns the answer, or null when none was sent. Never throws.
   */
  String handle(SocketChannel channel) {
    try (channel) {
      String refusal = refusal(peer(channel), owner);
      if (refusal != null) {
        AgentLog.line("refused a connection on " + socket + ": " + refusal);
        return null;
      }
      String line = Handover.readLine(channel, LINE_TIMEOUT_MILLIS);
      if (line == null) {
        return null;
      }
      String answer = answer(line);
      Handover.writeLine(channel, answer, LINE_TIMEOUT_MILLIS);
      return answer;
    } catch (IOException | RuntimeException e) {
      AgentLog.line("a connection on " + socket + " failed: " + e);
      return null;
    }
  }

  private String answer(String options) {
    try {
      loader.load(options);
      return Handover.OK;
    } catch (Throwable t) {
      AgentLog.line("did not take the options a daemon handed over: " + t);
      return Handover.error(t.getMessage() != null ? t.getMessage() : t.toString());
    }
  }

  /**
   * Why a peer may not hand options over, or null when it may: only a process of this JVM's own user may
   * ({@code peer} null: its credentials are unknown, so it may not either).
   */
  static String refusal(UserPrincipal peer, UserPrincipal own) {
    if (peer == null) {
      return "the peer's user is unknown (no SO_PEERCRED)";
    }
    if (!peer.equals(Objects.requireNonNull(own))) {
      return "the peer runs as " + peer.getName() + ", this JVM as " + own.getName();
    }
    return null;
  }

  /** The user of the process at the other end, from the kernel; null when the platform does not say. */
  private static UserPrincipal peer(SocketChannel channel) throws IOException {
    try {
      return channel.getOption(jdk.net.ExtendedSocketOptions.SO_PEERCRED).user();
    } catch (UnsupportedOperationException | LinkageError e) {
      return null;
    }
  }

  private static void checkPeerCredentials() throws IOException {
    try {
      Objects.requireNonNull(jdk.net.ExtendedSocketOptions.SO_PEERCRED);
    } catch (LinkageError e) {
      throw new IOException("this JVM has no jdk.net module, so the agent could not tell who connects (SO_PEERCRED)",
          e);
    }
  }

  /** Deletes a socket file nobody listens on (a JVM of this pid that was killed), or a link in its place. */
  private static void replaceStale(Path socket) throws IOException {
    if (!Files.exists(socket, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    if (!Files.isSymbolicLink(socket) && answers(socket)) {
      throw new IOException(socket + " is in use: another process listens on it");
    }
    Files.delete(socket);
    AgentLog.line("replaced the stale " + socket);
  }

  private static boolean answers(Path socket) {
    try (SocketChannel probe = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** Stops accepting and deletes the socket file, if it is still this agent's. Never throws. */
  void close() {
    try {
      server.close();
    } catch (IOException e) {
      AgentLog.line("closing " + socket + " failed: " + e);
    }
    try {
      PosixFileAttributes now = Files.readAttributes(socket, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      if (Objects.equals(now.fileKey(), fileKey)) {
        Files.delete(socket);
      }
    } catch (IOException | RuntimeException e) {
      // gone already, or not ours any more
    }
  }

  private static void pause() {
    try {
      Thread.sleep(RETRY_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
