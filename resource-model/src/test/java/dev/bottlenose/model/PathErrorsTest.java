package dev.bottlenose.model;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

class PathErrorsTest {

  @Test
  void missingSlash() {
    assertError(() -> ResourcePath.parse("Code/a"), 0, "expected '/' starting a resource path, one of /Code, /Threads");
    assertError(() -> ResourcePath.parse(""), 0, "expected '/'");
  }

  @Test
  void slashAloneNamesTheValidRoots() {
    assertError(() -> ResourcePath.parse("/"), 1,
        "expected a hierarchy root; valid roots are /Code, /Threads, /SyncObjects, /Memory, /IO, /VM, /Process, /Machine");
  }

  @Test
  void unknownRoot() {
    assertError(() -> ResourcePath.parse("/code/a"), 1, "unknown hierarchy root 'code'; valid roots are /Code");
  }

  @Test
  void emptySegment() {
    assertError(() -> ResourcePath.parse("/Threads/a//b"), 11, "empty segment; write an empty name as \"\"");
    assertError(() -> ResourcePath.parse("/Threads/"), 9, "empty segment");
  }

  @Test
  void danglingBackslash() {
    assertError(() -> ResourcePath.parse("/Threads/a\\"), 10, "dangling '\\' at end of path");
  }

  @Test
  void unescapedEdgeWhitespace() {
    assertError(() -> ResourcePath.parse("/Threads/ a"), 9, "whitespace at the start of a segment must be escaped");
    assertError(() -> ResourcePath.parse("/Threads/a /b"), 10, "whitespace at the end of a segment must be escaped");
  }

  @Test
  void malformedDescriptors() {
    assertError(() -> ResourcePath.parse("/Code/a/B/m(Q)V"), 12,
        "malformed method descriptor: expected a parameter type (B C D F I J S Z L [) or ')' but found 'Q'");
    assertError(() -> ResourcePath.parse("/Code/a/B/m(I"), 13, "expected a parameter type (B C D F I J S Z L [) or ')' but found end of segment");
    assertError(() -> ResourcePath.parse("/Code/a/B/m()"), 13, "expected a return type (B C D F I J S Z L [ or V) but found end of segment");
    assertError(() -> ResourcePath.parse("/Code/a/B/m(Ljava/lang/String)V"), 31, "expected ';' ending the class name");
    assertError(() -> ResourcePath.parse("/Code/a/B/m(L;)V"), 13, "expected a class name after 'L'");
    assertError(() -> ResourcePath.parse("/Code/a/B/m([)V"), 13, "expected an array element type");
    assertError(() -> ResourcePath.parse("/Code/a/B/m()VV"), 14, "expected '/' or the end of the path after the method descriptor");
  }

  @Test
  void constraintErrors() {
    assertError(() -> Constraint.parse("sometimes:/Code/a"), 0, "unknown constraint mode 'sometimes'; expected exclusive, inclusive or caller");
    assertError(() -> Constraint.parse("Code/a"), 0, "expected a mode (exclusive:, inclusive:, caller:) or '/'");
    assertError(() -> Constraint.parse("caller:/Cod"), 8, "unknown hierarchy root 'Cod'");
  }

  @Test
  void focusErrors() {
    assertError(() -> Focus.parse("</Code/a, /Threads/t, /Code/b>"), 22, "second path in /Code after /Code/a");
    assertError(() -> Focus.parse("</Code/a"), 8, "expected '>' closing the focus");
    assertError(() -> Focus.parse("</Threads/a\\>"), 13, "expected '>' closing the focus");
    assertError(() -> Focus.parse("</Code/a, >"), 10, "expected a resource path");
    assertError(() -> Focus.parse("<, /Code/a>"), 1, "expected a resource path");
    assertError(() -> Focus.parse("  Code"), 2, "expected '<' starting a focus or '/' starting a resource path");
    assertError(() -> Focus.parse(""), 0, "expected '<' starting a focus");
    assertError(() -> Focus.parse("< /Cod >"), 3, "unknown hierarchy root 'Cod'");
  }

  @Test
  void metricFocusErrors() {
    assertError(() -> MetricFocus.parse("calls, <>"), 0, "expected '(' starting a metric-focus pair");
    assertError(() -> MetricFocus.parse("(9calls, <>)"), 1, "expected a metric name ([A-Za-z_][A-Za-z0-9_]*)");
    assertError(() -> MetricFocus.parse("(calls <>)"), 7, "expected ',' after the metric name");
    assertError(() -> MetricFocus.parse("(calls-x, <>)"), 6, "expected ',' after the metric name");
    assertError(() -> MetricFocus.parse("(calls, <>"), 10, "expected ')' closing the metric-focus pair");
    assertError(() -> MetricFocus.parse("(calls, </Code/a, /Code/b>)"), 18, "second path in /Code");
  }

  private static void assertError(ThrowingCallable call, int position, String message) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(PathSyntaxException.class, e -> org.assertj.core.api.Assertions.assertThat(e.position()).isEqualTo(position))
        .hasMessageContaining(message)
        .hasMessageContaining("at position " + position);
  }
}
