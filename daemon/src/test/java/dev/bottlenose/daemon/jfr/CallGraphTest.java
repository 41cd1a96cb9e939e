package dev.bottlenose.daemon.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.bus.protocol.DaemonRequests.CallGraph.Part;
import dev.bottlenose.model.ResourcePath;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CallGraphTest {
  @Test
  void callersAndCalleesAreTheMethodsOutsideThePathWithinTheInliningDepthNearestFirst() {
    CallGraph graph = new CallGraph();
    // top frame first: Run.main → Pool.run → Numbers.gcd → Math.abs, and Run.main → Numbers.mix
    graph.record(stack("java.lang/Math/abs(J)J", "com.acme/Numbers/gcd(JJ)J", "com.acme/Pool/run()V", "app/Run/main()V"));
    graph.record(stack("com.acme/Numbers/mix(J)J", "app/Run/main()V"));
    graph.record(stack("org.other/Idle/spin()V", "app/Run/main()V"));

    Map<String, Object> numbers = graph.at(ResourcePath.parse("/Code/com.acme/Numbers"), 10);

    assertThat(paths(numbers.get("callers"))).containsExactly("/Code/app/Run/main()V", "/Code/com.acme/Pool/run()V");
    assertThat(paths(numbers.get("callees"))).containsExactly("/Code/java.lang/Math/abs(J)J");
    assertThat(paths(graph.at(ResourcePath.parse("/Code/com.acme"), 10).get("callers")))
        .as("the package's own methods are not its callers").containsExactly("/Code/app/Run/main()V");
    assertThat(paths(graph.at(ResourcePath.parse("/Code"), 10).get("callers"))).isEmpty();
  }

  @Test
  void theProgramsOwnMethodBelowThePlatformsIsCountedForTheStacksItIsTopmostOn() {
    CallGraph graph = new CallGraph();
    // a thread in a native sync, called through the platform's streams from the program's journal
    for (int i = 0; i < 3; i++) {
      graph.record(stack("java.io/FileDescriptor/sync()V", "com.acme/Journal/append([B)V", "com.acme/Journal/run()V",
          "java.lang/Thread/run()V"));
    }
    graph.record(stack("sun.nio.ch/SocketDispatcher/read0(Ljava/io/FileDescriptor;JI)I", "java.io/InputStream/read()I",
        "com.acme/Client/readLine()Ljava/lang/String;"));

    Map<String, Object> root = graph.at(ResourcePath.parse("/Code"), 10);

    assertThat(methods(root.get("hotOwn"))).containsExactly("/Code/com.acme/Journal/append([B)V",
        "/Code/com.acme/Client/readLine()Ljava/lang/String;");
    assertThat(methods(root.get("hot"))).as("on top: the platform's native methods").containsExactly(
        "/Code/java.io/FileDescriptor/sync()V", "/Code/sun.nio.ch/SocketDispatcher/read0(Ljava/io/FileDescriptor;JI)I");
  }

  @Test
  void onlyThePartsAskedForAreWorkedOut() {
    CallGraph graph = new CallGraph();
    graph.record(stack("java.lang/Math/abs(J)J", "com.acme/Numbers/gcd(JJ)J", "app/Run/main()V"));

    Map<String, Object> children = graph.at(ResourcePath.parse("/Code/com.acme"), 10, Set.of(Part.CHILDREN));
    Map<String, Object> reach = graph.at(ResourcePath.parse("/Code/com.acme"), 10, Set.of(Part.HOT, Part.REACH));

    assertThat(children).containsOnlyKeys("path", "samples", "total", "children");
    assertThat(paths(children.get("children"))).containsExactly("/Code/com.acme/Numbers");
    assertThat(reach).containsOnlyKeys("path", "samples", "total", "hot", "callers", "callees");
    assertThat(paths(reach.get("callers"))).containsExactly("/Code/app/Run/main()V");
    assertThat(graph.at(ResourcePath.parse("/Code/com.acme"), 10)).as("every part by default")
        .containsKeys("children", "hot", "hotOwn", "callers", "callees");
  }

  @Test
  void theStacksMergeIntoATreeFromTheOutermostFrameWithTheMostSampledNodesFirstAndHalveWithTheGraph() {
    CallGraph graph = new CallGraph();
    for (int i = 0; i < 6; i++) {
      graph.record(stack("com.acme/Numbers/gcd(JJ)J", "app/Run/main()V"));
    }
    for (int i = 0; i < 2; i++) {
      graph.record(stack("com.acme/Numbers/mix(J)J", "app/Run/main()V"));
    }
    graph.record(stack("app/Run/main()V"));
    graph.record(stack("com.acme/Numbers/gcd(JJ)J", "com.acme/Numbers/gcd(JJ)J", "app/Idle/run()V"));

    List<Map<String, Object>> frames = frames(graph.stacks(100));
    assertThat(graph.stacks(100).get("samples")).isEqualTo(10L);
    assertThat(frames).extracting(f -> f.get("method") + " " + f.get("parent") + " " + f.get("total") + " " + f.get("self"))
        .containsExactly("/Code -1 10 0", "/Code/app/Run/main()V 0 9 1", "/Code/com.acme/Numbers/gcd(JJ)J 1 6 6",
            "/Code/com.acme/Numbers/mix(J)J 1 2 2", "/Code/app/Idle/run()V 0 1 0", "/Code/com.acme/Numbers/gcd(JJ)J 4 1 0",
            "/Code/com.acme/Numbers/gcd(JJ)J 5 1 1");
    assertThat(frames(graph.stacks(3))).as("the most sampled nodes, each after its parent").extracting(f -> f.get("method"))
        .containsExactly("/Code", "/Code/app/Run/main()V", "/Code/com.acme/Numbers/gcd(JJ)J");

    graph.decay();
    assertThat(frames(graph.stacks(100))).extracting(f -> f.get("method") + " " + f.get("total"))
        .containsExactly("/Code 5", "/Code/app/Run/main()V 4", "/Code/com.acme/Numbers/gcd(JJ)J 3", "/Code/com.acme/Numbers/mix(J)J 1");
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> frames(Map<String, Object> stacks) {
    return (List<Map<String, Object>>) stacks.get("frames");
  }

  @Test
  void aCallerFurtherThanTheInliningDepthIsNotListed() {
    List<String> frames = new ArrayList<>();
    frames.add("com.acme/Leaf/work()V");
    for (int i = 1; i <= CallGraph.INLINE_LEVELS + 2; i++) {
      frames.add("app/Level" + i + "/call()V");
    }
    CallGraph graph = new CallGraph();
    graph.record(stack(frames.toArray(String[]::new)));

    List<String> callers = paths(graph.at(ResourcePath.parse("/Code/com.acme/Leaf"), 10).get("callers"));

    assertThat(callers).hasSize(CallGraph.INLINE_LEVELS).startsWith("/Code/app/Level1/call()V")
        .endsWith("/Code/app/Level" + CallGraph.INLINE_LEVELS + "/call()V");
  }

  /** Package, class and method paths of each "package/Class/method" frame, top first. */
  private static List<String[]> stack(String... frames) {
    List<String[]> out = new ArrayList<>();
    for (String f : frames) {
      ResourcePath m = ResourcePath.parse("/Code/" + f);
      out.add(new String[] {m.parent().parent().toString(), m.parent().toString(), m.toString()});
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private static List<String> paths(Object list) {
    return ((List<Map<String, Object>>) list).stream().map(e -> (String) e.get("path")).toList();
  }

  @SuppressWarnings("unchecked")
  private static List<String> methods(Object list) {
    return ((List<Map<String, Object>>) list).stream().map(e -> (String) e.get("method")).toList();
  }
}
