package dev.bottlenose.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;

import acme.workload.Workloads;
import dev.bottlenose.model.MethodRef;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every probe kind, inserted into a corpus of classes and removed again, leaves the original bytes. */
class RestorationTest {
  private static final String ME = "restoration-test";
  private static ProbeManager manager;

  @BeforeAll
  static void attach() {
    manager = TestAgent.manager();
    Workloads.load();
  }

  @AfterAll
  static void nothingSuppressed() {
    manager.removeAll(ME);
    assertThat(manager.suppressedErrors()).isZero();
  }

  static Stream<Arguments> corpus() {
    List<MethodRef> methods = List.of(
        method(Workloads.Counter.class, "tick", null),
        method(Workloads.Sleeper.class, "fib", null),
        method(Workloads.Caller.class, "caller", null),
        method(Workloads.Shapes.class, "make", null),
        method(Workloads.Locks.class, "guarded", null),
        method(Workloads.Locks.class, "syncMethod", null),
        method(Workloads.Point.class, "<init>", null),
        method(Workloads.Tricky.class, "<init>", null),
        method(Workloads.Tricky.class, "parse", null),
        method(Workloads.Holder.class, "anonymous", null),
        method(Workloads.Holder.Inner.class, "twice", null),
        new MethodRef(Workloads.class.getName() + "$Holder$1", "run", null),
        new MethodRef(Workloads.Holder.class.getName(), "lambda$supplier$0", null),
        new MethodRef(Workloads.class.getName() + "$1", "area", null),
        method(ArrayList.class, "add", "(Ljava/lang/Object;)Z"),
        method(ArrayList.class, "<init>", "(I)V"),
        method(java.util.HashMap.class, "put", null),
        method(java.util.HashMap.class, "resize", null));
    List<Arguments> cases = new ArrayList<>();
    for (MethodRef m : methods) {
      for (ProbeKind kind : ProbeKind.values()) {
        cases.add(Arguments.of(kind, m));
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0} in {1}")
  @MethodSource("corpus")
  void removalRestoresTheOriginalBytes(ProbeKind kind, MethodRef method) throws Exception {
    byte[] before = manager.currentClassBytes(method.className());
    MethodRef callee = kind == ProbeKind.CALL_SITE ? new MethodRef("java.lang.Object", "hashCode", null) : null;
    long id = manager.insert(new ProbeRequest(method, kind, callee, ME)).probeId();
    byte[] woven = manager.currentClassBytes(method.className());
    assertThat(woven).isNotEqualTo(before);
    assertThat(ClassDiff.verify(woven, Workloads.class.getClassLoader())).isEmpty();

    RemoveResult removed = manager.remove(id);
    byte[] after = manager.currentClassBytes(method.className());
    assertThat(removed.classRestored()).isTrue();
    assertThat(Arrays.equals(before, after)).as(() -> ClassDiff.diff(before, after)).isTrue();
  }

  private static MethodRef method(Class<?> c, String name, String descriptor) {
    return new MethodRef(c.getName(), name, descriptor);
  }
}
