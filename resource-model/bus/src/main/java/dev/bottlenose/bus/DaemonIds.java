package dev.bottlenose.bus;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** How daemons are named on the bus: {@code <short host name>-<target pid>}, unless given an id of their own. */
public final class DaemonIds {
  private DaemonIds() {}

  /** This machine's short host name (up to the first dot), as daemons report it; {@code localhost} if unknown. */
  public static String localHost() {
    try {
      String name = InetAddress.getLocalHost().getHostName();
      int dot = name.indexOf('.');
      return dot > 0 ? name.substring(0, dot) : name;
    } catch (UnknownHostException e) {
      return "localhost";
    }
  }

  /** The id of the daemon serving {@code pid} on {@code host}: letters, digits, '-' and '_' only. */
  public static String of(String host, long pid) {
    return (host + "-" + pid).replaceAll("[^A-Za-z0-9_-]", "-");
  }
}
