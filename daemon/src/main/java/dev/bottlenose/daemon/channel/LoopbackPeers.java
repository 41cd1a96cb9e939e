package dev.bottlenose.daemon.channel;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * Which user owns the other end of a TCP connection on this machine, from the kernel's socket tables
 * {@code /proc/net/tcp} and {@code /proc/net/tcp6} (Linux; a Java socket is dual-stack, so a connection to
 * 127.0.0.1 is usually listed in {@code tcp6}, as {@code ::ffff:127.0.0.1}). The uid column is the owner of the
 * socket, fixed when the socket was made: no process can make one that another user owns.
 */
final class LoopbackPeers {
  static final List<Path> TABLES = List.of(Path.of("/proc/net/tcp"), Path.of("/proc/net/tcp6"));

  private LoopbackPeers() {}

  /**
   * The uid owning the socket at {@code peer} whose remote end is {@code local} (our end of the accepted
   * connection); empty when no live socket matches, or the matches disagree.
   */
  static OptionalInt ownerUid(InetSocketAddress peer, InetSocketAddress local) {
    List<String> lines = new ArrayList<>();
    for (Path table : TABLES) {
      try {
        lines.addAll(Files.readAllLines(table));
      } catch (NoSuchFileException e) {
        // no IPv6 (or no IPv4) in this kernel: nothing listed there
      } catch (IOException e) {
        throw new ChannelException("cannot read " + table + " to check who connected: " + e.getMessage(), e);
      }
    }
    return ownerUid(lines, peer, local);
  }

  /** As {@link #ownerUid(InetSocketAddress, InetSocketAddress)}, over the given table lines (headers are skipped). */
  static OptionalInt ownerUid(List<String> lines, InetSocketAddress peer, InetSocketAddress local) {
    Integer uid = null;
    for (String line : lines) {
      String[] f = line.trim().split("\\s+");
      // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode …
      if (f.length < 10 || !f[0].endsWith(":")) {
        continue;
      }
      if ("0".equals(f[9]) || !matches(f[1], peer) || !matches(f[2], local)) {
        continue; // inode 0: a socket no process holds (TIME_WAIT, orphaned), whose uid column means nothing
      }
      int owner = Integer.parseInt(f[7]);
      if (uid != null && uid != owner) {
        return OptionalInt.empty();
      }
      uid = owner;
    }
    return uid == null ? OptionalInt.empty() : OptionalInt.of(uid);
  }

  /** Whether {@code hex} ({@code 0100007F:A1B2}, or 32 hex digits for IPv6) is {@code address}. */
  static boolean matches(String hex, InetSocketAddress address) {
    int colon = hex.indexOf(':');
    if (colon < 0) {
      return false;
    }
    try {
      int port = Integer.parseInt(hex.substring(colon + 1), 16);
      return port == address.getPort() && address(hex.substring(0, colon)).equals(address.getAddress());
    } catch (IllegalArgumentException | UnknownHostException e) {
      return false;
    }
  }

  /**
   * The address the kernel printed as 32-bit words in host byte order; an IPv4-mapped IPv6 address comes
   * back as the IPv4 one, as Java names it.
   */
  static InetAddress address(String hex) throws UnknownHostException {
    if (hex.length() != 8 && hex.length() != 32) {
      throw new UnknownHostException("not a /proc/net/tcp address: " + hex);
    }
    byte[] bytes = new byte[hex.length() / 2];
    boolean little = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
    for (int word = 0; word < bytes.length / 4; word++) {
      for (int i = 0; i < 4; i++) {
        int at = word * 8 + i * 2;
        int b = Integer.parseInt(hex.substring(at, at + 2), 16);
        bytes[word * 4 + (little ? 3 - i : i)] = (byte) b;
      }
    }
    return InetAddress.getByAddress(bytes);
  }
}
