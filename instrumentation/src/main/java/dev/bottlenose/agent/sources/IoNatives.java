package dev.bottlenose.agent.sources;

import java.util.Map;
import java.util.Set;

/**
 * The JDK's native methods that move data to or from a file or a socket, or force it to the device: a thread
 * whose top frame is one of these is doing I/O in the operating system, whether it is blocked (a disk sync, a
 * read waiting for data) or busy in the kernel (a one-byte read from a socket buffer). JFR's native-method
 * sampler ({@code jdk.NativeMethodSample}) names them as the top frame; {@code io_sample} sources count those
 * samples. This sees what JFR's I/O events miss ({@code FileChannel.force} and {@code FileDescriptor.sync}
 * record none on JDK 17) and costs the same at any rate of operations, where an event per read cost two thirds
 * of a core at a million reads a second.
 *
 * <p>Waiting for readiness is not I/O and is left out: a selector's {@code epoll_wait}, {@code poll}, a server
 * socket's {@code accept}. The classes cover JDK 17 to 25 ({@code UnixFileDispatcherImpl} since 21, the
 * classic socket streams before 13).
 */
public final class IoNatives {
  private static final Set<String> DISPATCH = Set.of("read0", "pread0", "readv0", "write0", "pwrite0", "writev0",
      "force0", "transferTo0", "transferFrom0", "receive0", "send0");
  private static final Map<String, Set<String>> METHODS = Map.ofEntries(
      Map.entry("sun.nio.ch.FileDispatcherImpl", DISPATCH),
      Map.entry("sun.nio.ch.UnixFileDispatcherImpl", DISPATCH),
      Map.entry("sun.nio.ch.SocketDispatcher", DISPATCH),
      Map.entry("sun.nio.ch.DatagramDispatcher", DISPATCH),
      Map.entry("sun.nio.ch.DatagramChannelImpl", DISPATCH),
      Map.entry("sun.nio.ch.FileChannelImpl", DISPATCH),
      Map.entry("sun.nio.ch.UnixDispatcher", DISPATCH),
      Map.entry("java.io.FileInputStream", Set.of("readBytes", "read0")),
      Map.entry("java.io.FileOutputStream", Set.of("writeBytes", "write")),
      Map.entry("java.io.RandomAccessFile", Set.of("readBytes", "read0", "writeBytes", "write0")),
      Map.entry("java.io.FileDescriptor", Set.of("sync", "sync0")),
      Map.entry("java.net.SocketInputStream", Set.of("socketRead0")),
      Map.entry("java.net.SocketOutputStream", Set.of("socketWrite0")));

  private IoNatives() {}

  /** Whether {@code className.method} (the class in Java's dotted form) is one of the I/O native methods. */
  public static boolean isIo(String className, String method) {
    Set<String> methods = METHODS.get(className);
    return methods != null && methods.contains(method);
  }
}
