package dev.bottlenose.web.render;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.WireFormat;
import dev.bottlenose.bus.protocol.DaemonRequests;
import dev.bottlenose.cli.Version;
import dev.bottlenose.consultant.SavedSearch;
import dev.bottlenose.model.Hierarchy;
import dev.bottlenose.model.ReadableNames;
import dev.bottlenose.model.ResourcePath;
import dev.bottlenose.model.json.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.GZIPOutputStream;

/**
 * A saved search's sampled stacks in the formats profilers' tools read: collapsed stacks (Brendan Gregg's folded
 * lines, for flamegraph.pl, speedscope and async-profiler's converters), speedscope's JSON and pprof's gzipped
 * {@code profile.proto}. Frames are named in Java's words ({@code com.acme.Cache.get(Object)}, as
 * {@link ReadableNames} writes them), the outermost first; the tree's root (all samples) is not a frame. A node's
 * callees the search did not keep (it keeps the frames with the most samples) count in a frame named
 * {@value #NOT_KEPT} above it, so every sample the tree counts is in the export.
 */
public final class StackExports {
  /** The graphs a search keeps stacks of, in the order a speedscope file lists them. */
  public static final List<String> GRAPHS = DaemonRequests.Stacks.KEPT;
  /** The frame that stands for callees left out of the kept tree. */
  public static final String NOT_KEPT = "[frames not kept]";

  private StackExports() {}

  /**
   * The stacks of {@code graph} that {@code search} kept of {@code daemon} (null or empty: the first JVM it kept
   * stacks of); empty when it kept none.
   */
  public static Optional<SavedSearch.Stacks> find(SavedSearch search, String daemon, String graph) {
    String d = daemonOrFirst(search, daemon);
    return search.stacks().stream().filter(s -> s.daemon().equals(d) && s.graph().equals(graph)).findFirst();
  }

  /** {@code daemon}, or when null or empty the first JVM {@code search} kept stacks of (null if none). */
  public static String daemonOrFirst(SavedSearch search, String daemon) {
    if (daemon != null && !daemon.isEmpty()) {
      return daemon;
    }
    return search.stacks().stream().map(SavedSearch.Stacks::daemon).findFirst().orElse(null);
  }

  /**
   * Collapsed stacks: a line per distinct stack that samples end in, {@code outer;...;inner count}, in the order of
   * the tree's frames; a {@code ;} or line break in a name is written as a space.
   */
  public static String collapsed(SavedSearch.Stacks stacks) {
    Map<String, Long> lines = new LinkedHashMap<>();
    for (Leaf leaf : leaves(stacks)) {
      String line = String.join(";", leaf.path().stream().map(f -> f.name().replaceAll("[;\r\n]", " ")).toList());
      lines.merge(line, leaf.samples(), Long::sum);
    }
    StringBuilder sb = new StringBuilder();
    lines.forEach((line, samples) -> sb.append(line).append(' ').append(samples).append('\n'));
    return sb.toString();
  }

  /**
   * A speedscope file ({@code https://www.speedscope.app/file-format-schema.json}) of one JVM's stacks: a sampled
   * profile per graph {@code search} kept of {@code daemon} (cpu, wait, sync, io, alloc; the wait graph's weights in
   * microseconds), frames shared between them.
   */
  public static String speedscope(SavedSearch search, String daemon) {
    Map<String, Integer> index = new HashMap<>();
    List<Object> frames = new ArrayList<>();
    List<Object> profiles = new ArrayList<>();
    for (SavedSearch.Stacks stacks : ofDaemon(search, daemon)) {
      List<Object> samples = new ArrayList<>();
      List<Object> weights = new ArrayList<>();
      long sum = 0;
      for (Leaf leaf : leaves(stacks)) {
        samples.add(leaf.path().stream().map(f -> index.computeIfAbsent(f.key(), k -> {
          frames.add(Map.of("name", f.name()));
          return frames.size() - 1;
        })).toList());
        weights.add(leaf.samples());
        sum += leaf.samples();
      }
      Map<String, Object> profile = new LinkedHashMap<>();
      profile.put("type", "sampled");
      profile.put("name", stacks.daemon() + " " + stacks.graph());
      boolean wait = stacks.graph().equals(DaemonRequests.Stacks.WAIT);
      profile.put("unit", wait ? "microseconds" : "none");
      profile.put("startValue", 0);
      profile.put("endValue", sum);
      profile.put("samples", samples);
      profile.put("weights", weights);
      profiles.add(profile);
    }
    Map<String, Object> file = new LinkedHashMap<>();
    file.put("$schema", "https://www.speedscope.app/file-format-schema.json");
    file.put("shared", Map.of("frames", frames));
    file.put("profiles", profiles);
    file.put("name", "search " + search.id() + ", " + daemonOrFirst(search, daemon));
    file.put("activeProfileIndex", 0);
    file.put("exporter", "bottlenose " + Version.number());
    return Json.write(file) + "\n";
  }

  /** The stacks {@code search} kept of {@code daemon} (null: its first JVM), in the order of {@link #GRAPHS}. */
  static List<SavedSearch.Stacks> ofDaemon(SavedSearch search, String daemon) {
    String d = daemonOrFirst(search, daemon);
    List<SavedSearch.Stacks> of = new ArrayList<>(search.stacks().stream().filter(s -> s.daemon().equals(d)).toList());
    of.sort((a, b) -> Integer.compare(rank(a.graph()), rank(b.graph())));
    return of;
  }

  private static int rank(String graph) {
    int i = GRAPHS.indexOf(graph);
    return i < 0 ? GRAPHS.size() : i;
  }

  /**
   * A pprof profile ({@code profile.proto}, gzip-compressed) of one graph's stacks: sample type
   * {@code samples/count} ({@code wait/microseconds} for the wait graph), a sample per stack that samples end in (its locations innermost first), a location and a
   * function per method (its name in Java's words, its system name the {@code /Code} path), the search's end as its
   * time, and a comment naming the search, JVM and graph.
   */
  public static byte[] pprof(SavedSearch search, SavedSearch.Stacks stacks) {
    // Field numbers of profile.proto: Profile {sample_type 1, sample 2, location 4, function 5, string_table 6,
    // time_nanos 9, period_type 11, period 12, comment 13}, ValueType {type 1, unit 2}, Sample {location_id 1,
    // value 2}, Location {id 1, line 4}, Line {function_id 1}, Function {id 1, name 2, system_name 3}.
    Strings strings = new Strings();
    List<byte[]> samples = new ArrayList<>();
    Map<String, Integer> ids = new LinkedHashMap<>();
    Map<String, Frame> functions = new LinkedHashMap<>();
    for (Leaf leaf : leaves(stacks)) {
      List<Long> locations = new ArrayList<>();
      for (int i = leaf.path().size() - 1; i >= 0; i--) {
        Frame f = leaf.path().get(i);
        functions.putIfAbsent(f.key(), f);
        locations.add((long) ids.computeIfAbsent(f.key(), k -> ids.size() + 1));
      }
      samples.add(message(out -> {
        packed(out, 1, locations);
        packed(out, 2, List.of(leaf.samples()));
      }));
    }
    boolean wait = stacks.graph().equals(DaemonRequests.Stacks.WAIT);
    int samplesType = strings.id(wait ? "wait" : "samples");
    int count = strings.id(wait ? "microseconds" : "count");
    int comment = strings.id("search " + search.id() + ", " + stacks.daemon() + ", " + stacks.graph()
        + (wait ? " graph, microseconds waited" : " samples"));
    List<byte[]> functionMessages = new ArrayList<>();
    functions.forEach((key, f) -> {
      int name = strings.id(f.name());
      int system = strings.id(f.key());
      functionMessages.add(message(out -> {
        out.writeUInt64(1, ids.get(key));
        out.writeInt64(2, name);
        out.writeInt64(3, system);
      }));
    });
    byte[] profile = message(out -> {
      byte[] type = message(t -> {
        t.writeInt64(1, samplesType);
        t.writeInt64(2, count);
      });
      out.writeByteArray(1, type);
      for (byte[] s : samples) {
        out.writeByteArray(2, s);
      }
      for (int id = 1; id <= ids.size(); id++) {
        long location = id;
        byte[] line = message(l -> l.writeUInt64(1, location));
        out.writeByteArray(4, message(l -> {
          l.writeUInt64(1, location);
          l.writeByteArray(4, line);
        }));
      }
      for (byte[] f : functionMessages) {
        out.writeByteArray(5, f);
      }
      for (String s : strings.all) {
        out.writeString(6, s);
      }
      out.writeInt64(9, search.endedAtMillis() * 1_000_000L);
      out.writeByteArray(11, type);
      out.writeInt64(12, 1);
      packed(out, 13, List.of((long) comment));
    });
    ByteArrayOutputStream gz = new ByteArrayOutputStream();
    try (GZIPOutputStream zip = new GZIPOutputStream(gz)) {
      zip.write(profile);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return gz.toByteArray();
  }

  /** A frame on a stack: its key (the daemon's {@code /Code} path) and its name in Java's words. */
  private record Frame(String key, String name) {}

  /** A stack, outermost frame first, and the samples that end in it. */
  private record Leaf(List<Frame> path, long samples) {}

  /**
   * The tree's stacks that samples end in, in the order of its frames: each frame's own samples, then those of
   * its callees left out ({@link #NOT_KEPT}); a root's own samples count as left out too.
   */
  private static List<Leaf> leaves(SavedSearch.Stacks stacks) {
    List<SavedSearch.Stacks.Frame> frames = stacks.frames();
    long[] listed = new long[frames.size()];
    for (int i = 0; i < frames.size(); i++) {
      int parent = frames.get(i).parent();
      if (parent >= i) {
        throw new IllegalArgumentException("stacks of " + stacks.daemon() + " (" + stacks.graph() + "): frame " + i
            + " comes before its parent " + parent);
      }
      if (parent >= 0) {
        listed[parent] += frames.get(i).total();
      }
    }
    List<List<Frame>> paths = new ArrayList<>(frames.size());
    List<Leaf> leaves = new ArrayList<>();
    Frame notKept = new Frame(NOT_KEPT, NOT_KEPT);
    for (int i = 0; i < frames.size(); i++) {
      SavedSearch.Stacks.Frame f = frames.get(i);
      List<Frame> path = new ArrayList<>();
      if (f.parent() >= 0) {
        path.addAll(paths.get(f.parent()));
        path.add(new Frame(f.method(), name(f.method())));
      }
      paths.add(path);
      long self = f.self();
      long left = f.total() - listed[i] - self;
      if (path.isEmpty()) {
        left += self;
        self = 0;
      }
      if (self > 0) {
        leaves.add(new Leaf(List.copyOf(path), self));
      }
      if (left > 0) {
        List<Frame> above = new ArrayList<>(path);
        above.add(notKept);
        leaves.add(new Leaf(List.copyOf(above), left));
      }
    }
    return leaves;
  }

  /** A {@code /Code} path in Java's words; any other text as it is. */
  static String name(String method) {
    try {
      ResourcePath path = ResourcePath.parse(method);
      if (path.hierarchy() == Hierarchy.CODE && !path.isRoot()) {
        return ReadableNames.code(path);
      }
    } catch (IllegalArgumentException e) {
      // not a path: its text is its name
    }
    return method;
  }

  /** A profile's string table: each string once, "" first. */
  private static final class Strings {
    final List<String> all = new ArrayList<>(List.of(""));
    final Map<String, Integer> ids = new HashMap<>(Map.of("", 0));

    int id(String s) {
      return ids.computeIfAbsent(s, k -> {
        all.add(k);
        return all.size() - 1;
      });
    }
  }

  private interface Fields {
    void write(CodedOutputStream out) throws IOException;
  }

  /** The bytes of one message whose fields {@code fields} writes. */
  private static byte[] message(Fields fields) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    try {
      fields.write(out);
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /** A packed repeated varint field. */
  private static void packed(CodedOutputStream out, int field, List<Long> values) throws IOException {
    int size = 0;
    for (long v : values) {
      size += CodedOutputStream.computeUInt64SizeNoTag(v);
    }
    out.writeTag(field, WireFormat.WIRETYPE_LENGTH_DELIMITED);
    out.writeUInt32NoTag(size);
    for (long v : values) {
      out.writeUInt64NoTag(v);
    }
  }
}
