package dev.bottlenose.bus.protocol;

import static dev.bottlenose.bus.protocol.DaemonEvents.array;
import static dev.bottlenose.bus.protocol.DaemonEvents.put;

import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * What a member that runs a search tells the cluster about it ({@code dev.bottlenose.bus.Addresses#SEARCHES} and
 * the registry of searches), so that a service shows the searches of every process: {@code from(body)} reads and
 * validates one (a bad field is a {@link BadField} naming it), {@code toJson()} writes it.
 */
public final class SearchEvents {
  private SearchEvents() {}

  /** {@code state} of a search that steps. */
  public static final String RUNNING = "running";
  /** {@code state} of a search that ended ({@code endReason} says why); its announcement lasts until its member leaves. */
  public static final String ENDED = "ended";

  /**
   * One search as its member announces it: its id and daemons; who runs it ({@code node}: the member, with the host,
   * the process id, the user the process runs as and the command, {@code startedBy}); its budget (a share of the
   * targets' CPU) and start; whether it runs, or why it ended; its headline ({@code nodes} in its graph,
   * {@code trueNodes}, the {@code topFinding} in words, null before any, and the top-level hypotheses' verdicts,
   * {@code families}); and the file it is saved in as it ends ({@code savedIn}, on its member's host).
   */
  public record Announcement(String searchId, List<String> daemons, String node, String host, long processId,
      String user, String startedBy, double budget, long startedAtMillis, String state, String endReason, int nodes,
      int trueNodes, String topFinding, List<Family> families, String savedIn) {
    public Announcement {
      daemons = List.copyOf(daemons);
      families = List.copyOf(families);
    }

    public static Announcement from(Object body) {
      Fields f = Fields.of(body);
      return new Announcement(f.requiredText("searchId"), f.texts("daemons"), f.requiredText("node"), f.text("host"),
          f.wholeNumber("processId", -1), f.text("user"), f.text("startedBy"), f.decimal("budget", 0),
          f.wholeNumber("startedAtMillis", 0), f.requiredText("state"), f.text("endReason"), f.integer("nodes", 0),
          f.integer("trueNodes", 0), f.text("topFinding"), f.objects("families").stream().map(Family::read).toList(),
          f.text("savedIn"));
    }

    /** An announcement when {@code body} is one, else null: the registry is shared. */
    public static Announcement fromOrNull(Object body) {
      try {
        return from(body);
      } catch (BadField e) {
        return null;
      }
    }

    public boolean isRunning() {
      return RUNNING.equals(state);
    }

    /** Whether the search covers daemon {@code daemonId}. */
    public boolean covers(String daemonId) {
      return daemons.contains(daemonId);
    }

    public JsonObject toJson() {
      JsonObject o = new JsonObject().put("searchId", searchId).put("daemons", array(daemons)).put("node", node)
          .put("host", host).put("processId", processId).put("user", user).put("startedBy", startedBy)
          .put("budget", budget).put("startedAtMillis", startedAtMillis).put("state", state);
      put(o, "endReason", endReason);
      o.put("nodes", nodes).put("trueNodes", trueNodes);
      put(o, "topFinding", topFinding);
      o.put("families", array(families.stream().map(Family::toJson).toList()));
      return put(o, "savedIn", savedIn);
    }
  }

  /**
   * A top-level hypothesis's verdict, one dot of the JVMs page: {@code state} true, false, unknown or untested (also
   * while under test), its value and threshold (null when not finite or none yet), and the confidence in it (1 for a
   * verdict; under test, the share of the evidence time it has had).
   */
  public record Family(String family, String state, Double value, Double threshold, double confidence) {
    static Family read(Fields f) {
      return new Family(f.requiredText("family"), f.requiredText("state"), f.decimal("value"), f.decimal("threshold"),
          f.decimal("confidence", 0));
    }

    public JsonObject toJson() {
      return new JsonObject().put("family", family).put("state", state).put("value", value).put("threshold", threshold)
          .put("confidence", confidence);
    }
  }
}
