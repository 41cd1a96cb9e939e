package dev.bottlenose.daemon.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.model.ResourcePath;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
