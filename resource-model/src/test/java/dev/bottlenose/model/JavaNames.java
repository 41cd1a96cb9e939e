package dev.bottlenose.model;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/** Generators of realistic JVM names: packages, binary class names, method names and descriptors. */
final class JavaNames {

  static Arbitrary<String> identifier() {
    return Arbitraries.oneOf(
        Arbitraries.of("Sim", "main", "run", "Ünïcødé", "日本語", "_x", "$proxy", "Ω", "step2", "value"),
        Arbitraries.strings().alpha().numeric().withChars("_$").ofMinLength(1).ofMaxLength(10)
            .filter(s -> Character.isJavaIdentifierStart(s.charAt(0))));
  }

  static Arbitrary<String> packageName() {
    return identifier().map(String::toLowerCase).list().ofMaxSize(4).map(l -> String.join(".", l));
  }

  /** Binary names without package: nested, anonymous, local, lambda proxies and hidden classes. */
  static Arbitrary<String> simpleBinaryName() {
    Arbitrary<String> suffix = Arbitraries.oneOf(
        identifier().map(s -> "$" + s),
        Arbitraries.integers().between(1, 30).map(i -> "$" + i),
        Arbitraries.integers().between(1, 9).flatMap(i -> identifier().map(s -> "$" + i + s)));
    Arbitrary<String> nested = Combinators.combine(identifier(), suffix.list().ofMaxSize(3))
        .as((outer, parts) -> outer + String.join("", parts));
    Arbitrary<String> hidden = Combinators.combine(nested, Arbitraries.longs().between(0x800000000L, 0x900000000L))
        .as((n, addr) -> n + "$$Lambda/0x" + String.format("%016x", addr));
    return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(4, nested), net.jqwik.api.Tuple.of(1, hidden));
  }

  static Arbitrary<String> binaryClassName() {
    return Combinators.combine(packageName(), simpleBinaryName()).as((p, c) -> p.isEmpty() ? c : p + "." + c);
  }

  static Arbitrary<String> methodName() {
    return Arbitraries.oneOf(
        identifier(),
        Arbitraries.of("<init>", "<clinit>", "lambda$main$0", "lambda$static$12", "access$000", "values", "valueOf"));
  }

  static Arbitrary<String> fieldType() {
    Arbitrary<String> object = binaryClassName().map(n -> "L" + n.replace('.', '/') + ";");
    Arbitrary<String> base = Arbitraries.oneOf(Arbitraries.of("B", "C", "D", "F", "I", "J", "S", "Z"), object);
    return Combinators.combine(Arbitraries.integers().between(0, 3), base).as((dims, t) -> "[".repeat(dims) + t);
  }

  static Arbitrary<String> descriptor() {
    Arbitrary<String> ret = Arbitraries.oneOf(Arbitraries.just("V"), fieldType());
    return Combinators.combine(fieldType().list().ofMaxSize(4), ret).as((params, r) -> "(" + String.join("", params) + ")" + r);
  }

  static Arbitrary<String> methodSegment() {
    return Combinators.combine(methodName(), descriptor()).as(String::concat);
  }

  static Arbitrary<MethodRef> methods() {
    Arbitrary<String> desc = Arbitraries.oneOf(descriptor(), Arbitraries.just(null));
    return Combinators.combine(binaryClassName(), methodName(), desc).as(MethodRef::new);
  }

  static List<String> forms() {
    return List.of("interpreted", "c1", "c2", "inlined");
  }

  private JavaNames() {}
}
