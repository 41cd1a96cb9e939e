package dev.bottlenose.agent.sources;

import dev.bottlenose.agent.discovery.TypeNames;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.ResourcePath;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;

/**
 * The object an event is about, as discovery names it: {@code /SyncObjects/monitors/<class>} for monitor
 * entry and waits (the monitor's class), {@code /SyncObjects/locks/<class>} for parking (the blocker's
 * class), either for a lock sample (as it says), {@code /IO/file/<absolute path>} and {@code /IO/socket/<remote
 * host:port>} for file and socket operations. A filter is a group ({@code monitors}, {@code file}, …) or one object
 * in it.
 */
final class ResourceFilter {
  private static final int MAX_CACHED = 4096;
  private static final Map<String, String> ABSOLUTE = new ConcurrentHashMap<>();

  private final String group;
  private final String name;

  ResourceFilter(ResourcePath path) {
    this.group = path.segments().get(0);
    this.name = path.depth() > 1 ? path.segments().get(1) : null;
  }

  /**
   * The group of resources an event of this type is about: monitors, locks, file or socket; null for the others and
   * for a lock sample, whose group is the event's own ({@link #groupOf(SourceEvent, RecordedEvent)}).
   */
  static String groupOf(SourceEvent event) {
    return switch (event) {
      case MONITOR_ENTER, MONITOR_WAIT -> "monitors";
      case PARK, LOCK_PARK -> "locks";
      case FILE_READ, FILE_WRITE -> "file";
      case SOCKET_READ, SOCKET_WRITE -> "socket";
      default -> null;
    };
  }

  private static String groupOf(SourceEvent type, RecordedEvent e) {
    return type == SourceEvent.LOCK_SAMPLE ? e.getBoolean("monitor") ? "monitors" : "locks" : groupOf(type);
  }

  boolean matches(SourceEvent type, RecordedEvent e) {
    if (!group.equals(groupOf(type, e))) {
      return false;
    }
    return name == null || name.equals(nameOf(type, e));
  }

  private static String nameOf(SourceEvent type, RecordedEvent e) {
    return switch (type) {
      case MONITOR_ENTER, MONITOR_WAIT -> className(e.getClass("monitorClass"));
      case PARK, LOCK_PARK -> className(e.getClass("parkedClass"));
      case LOCK_SAMPLE -> e.getString("lockClass");
      case FILE_READ, FILE_WRITE -> absolute(e.getString("path"));
      default -> hostPort(e);
    };
  }

  private static String className(RecordedClass c) {
    return c == null ? null : TypeNames.javaName(c.getName());
  }

  /** JFR gives the path a file was opened with; discovery lists the absolute one from /proc/self/fd. */
  private static String absolute(String path) {
    if (path == null || path.isEmpty() || path.startsWith("/")) {
      return path;
    }
    String known = ABSOLUTE.get(path);
    if (known == null) {
      if (ABSOLUTE.size() >= MAX_CACHED) {
        ABSOLUTE.clear();
      }
      known = Path.of(path).toAbsolutePath().normalize().toString();
      ABSOLUTE.put(path, known);
    }
    return known;
  }

  private static String hostPort(RecordedEvent e) {
    String host = e.getString("address");
    return (host == null || host.isEmpty() ? e.getString("host") : host) + ":" + e.getInt("port");
  }

  /** The hierarchy of the resources an event of this type is about, or null. */
  static Hierarchy hierarchyOf(SourceEvent event) {
    if (event == SourceEvent.LOCK_SAMPLE) {
      return Hierarchy.SYNC_OBJECTS;
    }
    String g = groupOf(event);
    return g == null ? null : g.equals("monitors") || g.equals("locks") ? Hierarchy.SYNC_OBJECTS : Hierarchy.IO;
  }
}
