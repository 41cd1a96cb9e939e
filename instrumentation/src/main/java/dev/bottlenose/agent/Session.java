package dev.bottlenose.agent;

import dev.bottlenose.agent.discovery.Discovery;
import dev.bottlenose.agent.discovery.ProcessDiscovery;
import dev.bottlenose.agent.sources.ToolThreads;
import dev.bottlenose.agent.wire.Bye;
import dev.bottlenose.agent.wire.Changes;
import dev.bottlenose.agent.wire.ErrorFrame;
import dev.bottlenose.agent.wire.Frames;
import dev.bottlenose.agent.wire.Hello;
import dev.bottlenose.instrumentation.RemoveResult;
import dev.bottlenose.model.ResourceChange;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.function.Consumer;

/**
 * One daemon's connection: once discovery has its first picture of the JVM, says hello, answers
 * requests in order on its {@code bottlenose-channel-N} thread, pushes resource changes from its
 * {@code bottlenose-sender-N} thread, and when the daemon says bye, falls silent for the heartbeat
 * time, stops reading (60 change batches, 30 s, pending) or goes away, removes every probe it inserted.
 * It holds discovery from its start to its end ({@link AgentRuntime#holdDiscovery}).
 */
final class Session {
  static final int CONNECT_TIMEOUT_MILLIS = 5000;
  static final long DISCOVERY_WAIT_MILLIS = 5000;
  static final int MAX_PENDING_CHANGES = 60;

  private final AgentRuntime runtime;
  private final AgentOptions options;
  private final String loadedBy;
  private final int number;
  private final String requester;
  private final BlockingQueue<List<ResourceChange>> pendingChanges = new ArrayBlockingQueue<>(MAX_PENDING_CHANGES);
  private final Consumer<List<ResourceChange>> changeListener = this::offerChanges;
  private volatile boolean stopReading;
  private Discovery discovery;
  private Thread sender;
  private Socket socket;
  private OutputStream out;
  private volatile Requests requests;

  Session(AgentRuntime runtime, AgentOptions options, String loadedBy, int number) {
    this.runtime = runtime;
    this.options = options;
    this.loadedBy = loadedBy;
    this.number = number;
    this.requester = options.requester() + "#" + number;
  }

  void run() {
    discovery = runtime.holdDiscovery(number);
    try {
      serveUntilClosed();
    } finally {
      runtime.releaseDiscovery(number);
    }
  }

  private void serveUntilClosed() {
    String reason;
    try {
      discovery.awaitStarted(DISCOVERY_WAIT_MILLIS);
      socket = new Socket();
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), options.port()), CONNECT_TIMEOUT_MILLIS);
      socket.setTcpNoDelay(true);
      socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, options.heartbeatMillis()));
      out = new BufferedOutputStream(socket.getOutputStream());
      runtime.sessionOpened(number);
      try {
        send(hello().toMap());
        sender = ToolThreads.newThread("bottlenose-sender-" + number, this::sendChanges);
        sender.start();
        discovery.addListener(changeListener);
        reason = serve(new BufferedInputStream(socket.getInputStream()));
      } finally {
        runtime.sessionClosed(number);
      }
    } catch (SocketTimeoutException e) {
      reason = "no frame from the daemon for " + options.heartbeatMillis() + " ms";
    } catch (EOFException e) {
      reason = "the daemon closed the channel";
    } catch (IOException | RuntimeException e) {
      reason = stopReading ? "the daemon read no change event for " + MAX_PENDING_CHANGES + " batches" : "channel failed: " + e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      reason = "interrupted";
    }
    close(reason);
  }

  private String serve(InputStream in) throws IOException {
    Requests requests = new Requests(runtime, requester, number);
    this.requests = requests;
    while (true) {
      Map<String, Object> request;
      try {
        request = Frames.read(in);
      } catch (RuntimeException e) {
        send(Requests.error(null, "BAD_REQUEST", "frame is not valid JSON: " + e.getMessage()));
        continue;
      }
      Map<String, Object> response = requests.answer(request);
      send(response);
      if (Bye.isBye(request) && !ErrorFrame.isError(response)) {
        return "the daemon said bye";
      }
    }
  }

  private void send(Map<String, ?> message) throws IOException {
    synchronized (this) {
      Frames.write(out, message);
    }
  }

  /** Queues a batch for the sender; a daemon that has let the queue fill up is not reading, and is dropped. */
  private void offerChanges(List<ResourceChange> changes) {
    if (!pendingChanges.offer(changes)) {
      stopReading = true;
      discovery.removeListener(changeListener);
      closeSocket();
    }
  }

  private void sendChanges() {
    try {
      while (true) {
        send(changesEvent(pendingChanges.take()));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException | RuntimeException e) {
      discovery.removeListener(changeListener);
    }
  }

  private static Map<String, Object> changesEvent(List<ResourceChange> changes) {
    List<Changes.Change> list = new ArrayList<>(changes.size());
    for (ResourceChange c : changes) {
      list.add(new Changes.Change(c.type(), Requests.resourceJson(c.resource())));
    }
    return new Changes(list).toMap();
  }

  private void close(String reason) {
    discovery.removeListener(changeListener);
    if (sender != null) {
      sender.interrupt();
    }
    List<RemoveResult> removed = runtime.probes.removeAll(requester);
    for (RemoveResult r : removed) {
      runtime.monitorBaselines.remove(r.probeId());
    }
    int sources = runtime.sources == null ? 0 : runtime.sources.removeAll(requester);
    Requests served = requests;
    if (served != null) {
      served.close();
    }
    closeSocket();
    AgentLog.line("session " + number + " (" + requester + ") closed: " + reason
        + "; removed " + removed.size() + " probe(s)" + (sources == 0 ? "" : " and " + sources + " source(s)"));
  }

  private void closeSocket() {
    try {
      if (socket != null) {
        socket.close();
      }
    } catch (IOException e) {
      AgentLog.line("session " + number + " socket close failed: " + e);
    }
  }

  /** Who this JVM is, and the token the daemon gave the agent: the first frame of the session. */
  private Hello hello() {
    String repository = runtime.recording == null ? null : runtime.recording.repository();
    Map<String, Long> calibration = new LinkedHashMap<>();
    calibration.put("virtualCallNanos", runtime.calibration.virtualCallNanos());
    calibration.put("allocationNanos", runtime.calibration.allocationNanos());
    calibration.put("samplePeriodNanos", runtime.samplePeriodNanos);
    return new Hello(options.token(), ProcessHandle.current().pid(), System.getProperty("java.version"),
        System.getProperty("java.vendor"), System.getProperty("java.vm.name"), ProcessDiscovery.mainClass(),
        ProcessDiscovery.commandLine(), runtime.instrumentation.isRetransformClassesSupported(), Hello.AGENT_VERSION,
        ManagementFactory.getRuntimeMXBean().getStartTime(), runtime.startedAtMillis, loadedBy, calibration, repository);
  }
}
