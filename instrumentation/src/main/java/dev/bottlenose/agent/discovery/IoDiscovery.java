package dev.bottlenose.agent.discovery;

import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.Resource;
import dev.bottlenose.model.ResourcePath;
import dev.bottlenose.model.ResourceTree;
import java.io.FileInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * {@code /IO/file/<path>} and {@code /IO/socket/<remote host:port>} (listening sockets as
 * {@code listen:<local host:port>}) from {@code /proc/self/fd} and {@code /proc/net/tcp[6]}, with the
 * totals of JFR's slow file and socket operations as attributes. The TCP tables, costly to read on a
 * busy host, are read only when a socket inode not seen before turns up. Closed files and sockets are removed
 * unless JFR saw operations on them, which are kept with {@code open=false}.
 */
final class IoDiscovery {
  static final ResourcePath FILES = Hierarchy.IO.root().child("file");
  static final ResourcePath SOCKETS = Hierarchy.IO.root().child("socket");

  private final ResourceTree tree;
  private final boolean procAvailable = Files.isDirectory(Path.of("/proc/self/fd"));
  private final Map<ResourcePath, long[]> totals = new HashMap<>();
  private Set<ResourcePath> open = new HashSet<>();
  private Map<String, String> socketNames = new HashMap<>();

  IoDiscovery(ResourceTree tree) {
    this.tree = tree;
  }

  void start() {
    tree.put(new Resource(Hierarchy.IO.root(), "root", procAvailable
        ? Map.of() : Map.of("openFiles", "unavailable: no /proc/self/fd on " + System.getProperty("os.name"))));
    tree.put(Resource.of(FILES, "files"));
    tree.put(Resource.of(SOCKETS, "sockets"));
  }

  synchronized void refresh() {
    if (!procAvailable) {
      return;
    }
    Set<ResourcePath> now = scan();
    for (ResourcePath p : open) {
      if (!now.contains(p)) {
        if (totals.containsKey(p)) {
          put(p, false);
        } else {
          tree.remove(p);
        }
      }
    }
    for (ResourcePath p : now) {
      put(p, true);
    }
    open = now;
  }

  /** A slow file read or write; {@code path} is null for streams opened on a descriptor (stdin, …). */
  synchronized void fileOperation(String path, boolean write, long bytes, long nanos) {
    if (path == null || path.isEmpty()) {
      return;
    }
    operation(FILES.child(path), write, bytes, nanos);
  }

  synchronized void socketOperation(String hostPort, boolean write, long bytes, long nanos) {
    operation(SOCKETS.child(hostPort), write, bytes, nanos);
  }

  private void operation(ResourcePath p, boolean write, long bytes, long nanos) {
    long[] t = totals.computeIfAbsent(p, k -> new long[6]);
    int base = write ? 3 : 0;
    t[base]++;
    t[base + 1] += Math.max(0, bytes);
    t[base + 2] += nanos;
    put(p, open.contains(p) || !procAvailable);
  }

  private void put(ResourcePath p, boolean isOpen) {
    Map<String, String> a = new LinkedHashMap<>();
    a.put("open", String.valueOf(isOpen));
    long[] t = totals.get(p);
    if (t != null) {
      a.put("slowReads", String.valueOf(t[0]));
      a.put("slowReadBytes", String.valueOf(t[1]));
      a.put("slowReadNanos", String.valueOf(t[2]));
      a.put("slowWrites", String.valueOf(t[3]));
      a.put("slowWriteBytes", String.valueOf(t[4]));
      a.put("slowWriteNanos", String.valueOf(t[5]));
    }
    tree.put(new Resource(p, p.parent().equals(FILES) ? "file" : "socket", a));
  }

  private Set<ResourcePath> scan() {
    Set<ResourcePath> found = new HashSet<>();
    Map<String, String> sockets = new HashMap<>();
    try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc/self/fd"))) {
      for (Path fd : fds) {
        String target = readLink(fd);
        if (target == null) {
          continue;
        }
        if (target.startsWith("/") && !target.startsWith("/proc/") && !target.startsWith("/dev/")) {
          found.add(FILES.child(target));
        } else if (target.startsWith("socket:[")) {
          String inode = target.substring(8, target.length() - 1);
          String name = socketNames.get(inode);
          if (name == null && !socketNames.containsKey(inode)) {
            socketNames.putAll(TcpTable.byInode());
            socketNames.putIfAbsent(inode, null);
            name = socketNames.get(inode);
          }
          sockets.put(inode, name);
          if (name != null) {
            found.add(SOCKETS.child(name));
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      return open;
    }
    socketNames = sockets;
    return found;
  }

  private static String readLink(Path fd) {
    try {
      return Files.readSymbolicLink(fd).toString();
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** TCP sockets of this process's network namespace by inode, named by remote (or listening) address. */
  static final class TcpTable {
    static Map<String, String> byInode() {
      Map<String, String> out = new HashMap<>();
      read(Path.of("/proc/net/tcp"), out);
      read(Path.of("/proc/net/tcp6"), out);
      return out;
    }

    /**
     * Reads a socket table with a {@code FileInputStream}, not {@code Files}: NIO's file reads go through the same
     * JDK code as the program's socket reads ({@code sun.nio.ch.IOUtil}), and a file's dispatcher arriving there
     * made the JIT throw away the program's compiled socket code.
     */
    private static void read(Path table, Map<String, String> out) {
      String[] lines;
      try (FileInputStream in = new FileInputStream(table.toFile())) {
        lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n");
      } catch (IOException e) {
        return;
      }
      for (int i = 1; i < lines.length; i++) {
        String[] f = lines[i].trim().split("\\s+");
        if (f.length < 10) {
          continue;
        }
        boolean listening = "0A".equals(f[3]);
        String name = listening ? "listen:" + address(f[1]) : address(f[2]);
        out.put(f[9], name);
      }
    }

    /** {@code 0100007F:1F90} (little-endian words) to {@code 127.0.0.1:8080}; IPv6 in bracketed hex groups. */
    static String address(String hex) {
      int colon = hex.indexOf(':');
      String ip = hex.substring(0, colon);
      int port = Integer.parseInt(hex.substring(colon + 1), 16);
      byte[] bytes = new byte[ip.length() / 2];
      for (int word = 0; word < bytes.length / 4; word++) {
        for (int b = 0; b < 4; b++) {
          int at = word * 8 + (3 - b) * 2;
          bytes[word * 4 + b] = (byte) Integer.parseInt(ip.substring(at, at + 2), 16);
        }
      }
      return host(bytes) + ":" + port;
    }

    private static String host(byte[] bytes) {
      if (bytes.length == 4) {
        return (bytes[0] & 0xff) + "." + (bytes[1] & 0xff) + "." + (bytes[2] & 0xff) + "." + (bytes[3] & 0xff);
      }
      boolean v4mapped = true;
      for (int i = 0; i < 10; i++) {
        v4mapped &= bytes[i] == 0;
      }
      v4mapped &= bytes[10] == (byte) 0xff && bytes[11] == (byte) 0xff;
      if (v4mapped) {
        return host(java.util.Arrays.copyOfRange(bytes, 12, 16));
      }
      StringBuilder sb = new StringBuilder("[");
      for (int i = 0; i < 16; i += 2) {
        sb.append(i == 0 ? "" : ":").append(Integer.toHexString(((bytes[i] & 0xff) << 8) | (bytes[i + 1] & 0xff)));
      }
      return sb.append(']').toString();
    }

    private TcpTable() {}
  }
}
