package dev.bottlenose.daemon.channel;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/** The numeric user ids the channel's checks compare, read from {@code /proc} (Linux). */
public final class Uids {
  private Uids() {}

  /** This process's effective uid. */
  public static int self() {
    try {
      return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    } catch (IOException | UnsupportedOperationException e) {
      throw new ChannelException("cannot tell this process's uid from /proc/self: " + e, e);
    }
  }

  /** The effective uid of process {@code pid} (the {@code Uid:} line of {@code /proc/<pid>/status}). */
  public static int ofProcess(long pid) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
        if (line.startsWith("Uid:")) {
          String[] ids = line.substring(4).trim().split("\\s+");
          return Integer.parseInt(ids[1]);
        }
      }
      throw new ChannelException("/proc/" + pid + "/status has no Uid: line");
    } catch (IOException | RuntimeException e) {
      if (e instanceof ChannelException c) {
        throw c;
      }
      throw new ChannelException("cannot tell which user runs process " + pid + ": " + e, e);
    }
  }

  /** The uid owning {@code path} itself (a link is not followed). */
  public static int owner(Path path) throws IOException {
    return (Integer) Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS);
  }
}
