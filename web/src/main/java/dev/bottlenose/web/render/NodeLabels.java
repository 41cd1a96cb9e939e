package dev.bottlenose.web.render;

import dev.bottlenose.consultant.Findings;
import dev.bottlenose.consultant.Hypothesis;
import dev.bottlenose.consultant.ShgNode;
import dev.bottlenose.model.Focus;
import dev.bottlenose.model.ResourcePath;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The words a search-history-graph box is labelled with, and how wide they are drawn: the server lays the graph
 * out, so it sizes each box by its label. A focus reads in short words that say which hierarchy each part is of,
 * as the pages' {@code ui.js focusLeaf} writes it: {@code Class.burn()} for {@code /Code/pkg/Class/burn()J},
 * {@code thread main}, {@code pool request}, {@code monitor AuditLog}, {@code objects of byte[]}, {@code file /tmp/x};
 * {@code whole program} for {@code <>}.
 */
public final class NodeLabels {
  /** The longest label drawn; longer ones are cut in the middle with an ellipsis (the box's tooltip has the whole). */
  public static final int MAX_CHARS = 48;
  /** The labels' font, and its size in pixels: the page and the SVG export draw with the same. */
  public static final String FONT = "Helvetica, Arial, 'Liberation Sans', sans-serif";
  public static final int FONT_SIZE = 11;

  /**
   * Helvetica's advance widths (its AFM metrics, in 1/1000 em) of the printable ASCII characters, from the space on;
   * Arial and Liberation Sans have the same. Other characters count as {@link #OTHER_WIDTH}.
   */
  private static final int[] WIDTHS = {
      278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, // space to /
      556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, // 0 to ?
      1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, // @ to O
      667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, // P to _
      333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, // ` to o
      556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584}; // p to ~
  private static final int OTHER_WIDTH = 600;

  private NodeLabels() {}

  /** A node's label: its hypothesis and where, e.g. {@code cpu_bound · Hot.spin()}, clipped to {@link #MAX_CHARS}. */
  public static String of(ShgNode n) {
    return of(n.hypothesis(), n.focus());
  }

  /**
   * The label of {@code hypothesis} at {@code focus}, clipped in the middle: a long label loses characters from the
   * middle of its longest inner part first (a class or method), so that the hypothesis and the last part, often a
   * thread, pool or monitor that tells sibling nodes apart, stay whole.
   */
  static String of(String hypothesis, Focus focus) {
    List<String> parts = new ArrayList<>();
    parts.add(hypothesis);
    for (ResourcePath p : focus.constrained().values()) {
      parts.add(partWords(p.toString()));
    }
    if (parts.size() == 1) {
      parts.add("whole program");
    }
    return clip(parts);
  }

  /** A group box's label: how many false nodes it stands for and their hypotheses, e.g. {@code 12 false: cpu_bound}. */
  public static String ofGroup(List<ShgNode> members) {
    return clip(members.size() + " false: " + String.join(", ", members.stream().map(ShgNode::hypothesis).distinct().toList()));
  }

  /**
   * A node's tooltip: the hypothesis at the whole focus, the state with the value against the threshold in the unit of
   * {@code h}, the node's hypothesis ({@link Findings#valueText}; null: not known, no unit), and why it is in it.
   */
  public static String tooltip(ShgNode n, Hypothesis h) {
    String value = Double.isNaN(n.value()) ? "" : "  " + Findings.valueText(h, n.value(), n.threshold());
    return n.hypothesis() + " at " + n.focus() + "\n" + n.state().word() + value + (n.reason() == null ? "" : "\n" + n.reason());
  }

  /** A group box's tooltip: its members' foci in words, and what a click does. */
  public static String groupTooltip(List<ShgNode> members) {
    return ofGroup(members) + "\n" + String.join(", ", members.stream().map(m -> focusWords(m.focus())).toList())
        + "\nclick to show them";
  }

  /** {@code focus} in short words per part, joined by a middle dot; {@code whole program} for {@code <>}. */
  public static String focusWords(Focus focus) {
    List<String> parts = new ArrayList<>();
    for (ResourcePath p : focus.constrained().values()) {
      parts.add(partWords(p.toString()));
    }
    return parts.isEmpty() ? "whole program" : String.join(" \u00b7 ", parts);
  }

  /** One constrained path in words that name its hierarchy: the same cases as {@code ui.js partWords}. */
  static String partWords(String path) {
    List<String> parts = Arrays.stream(path.split("/")).filter(s -> !s.isEmpty()).toList();
    if (parts.size() <= 1) {
      return "/" + (parts.isEmpty() ? "" : parts.get(0));
    }
    List<String> rest = parts.subList(1, parts.size());
    String last = rest.get(rest.size() - 1);
    return switch (parts.get(0)) {
      case "Code" -> rest.size() == 1 ? "package " + rest.get(0) : rest.size() == 2 ? "class " + simple(rest.get(1))
          : simple(rest.get(1)) + "." + String.join("/", rest.subList(2, rest.size())).replaceAll("\\(.*$", "()");
      case "Threads" -> rest.size() == 1 ? "pool " + rest.get(0) : "thread " + last;
      case "SyncObjects" -> rest.size() == 1 ? "all " + rest.get(0)
          : (rest.get(0).equals("locks") ? "lock " : "monitor ") + simple(String.join("/", rest.subList(1, rest.size())));
      case "Memory" -> "objects of " + simple(String.join("/", rest));
      case "IO" -> rest.size() == 1 ? "all " + rest.get(0) + "s" : rest.get(0) + " " + String.join("/", rest.subList(1, rest.size()));
      case "Process" -> "process " + last;
      case "Machine" -> "machine " + last;
      default -> last;
    };
  }

  /** A class name without its package and without a JIT suffix such as {@code +0x1a}. */
  private static String simple(String name) {
    String bare = name.replaceAll("\\+0x[0-9a-fA-F]+([./]\\d+)?$", "");
    return bare.substring(bare.lastIndexOf('.') + 1);
  }

  static String clip(String text) {
    return text.length() > MAX_CHARS ? text.substring(0, MAX_CHARS - 1) + "\u2026" : text;
  }

  /** The shortest a part is cut to in the middle: three characters, an ellipsis, three characters. */
  private static final int MIN_PART = 7;

  /**
   * {@code parts} joined by a middle dot, at most {@link #MAX_CHARS} long: the longest inner part is cut in its middle
   * (its head and tail kept, an ellipsis between) until the whole fits, then the last part, then the first; only
   * when every part is down to {@link #MIN_PART} is the tail cut.
   */
  static String clip(List<String> parts) {
    String sep = " \u00b7 ";
    List<String> p = new ArrayList<>(parts);
    int over = String.join(sep, p).length() - MAX_CHARS;
    while (over > 0) {
      int i = longest(p, 1, p.size() - 1);
      if (i < 0) {
        i = longest(p, p.size() - 1, p.size());
      }
      if (i < 0) {
        i = longest(p, 0, 1);
      }
      if (i < 0) {
        break;
      }
      String s = p.get(i);
      int keep = Math.max(MIN_PART - 1, s.length() - over - 1);
      String shorter = s.substring(0, (keep + 1) / 2) + "\u2026" + s.substring(s.length() - keep / 2);
      over -= s.length() - shorter.length();
      p.set(i, shorter);
    }
    return clip(String.join(sep, p));
  }

  /** The index of the longest of {@code parts} from {@code from} to {@code to} (exclusive) that can still be cut, or -1. */
  private static int longest(List<String> parts, int from, int to) {
    int best = -1;
    for (int i = Math.max(from, 0); i < to; i++) {
      if (parts.get(i).length() > MIN_PART && (best < 0 || parts.get(i).length() > parts.get(best).length())) {
        best = i;
      }
    }
    return best;
  }

  /** How wide {@code text} is drawn in {@link #FONT} at {@link #FONT_SIZE} pixels. */
  public static double width(String text) {
    int units = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      units += c >= 32 && c < 32 + WIDTHS.length ? WIDTHS[c - 32] : OTHER_WIDTH;
    }
    return units * FONT_SIZE / 1000.0;
  }
}
