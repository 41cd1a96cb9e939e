package dev.bottlenose.metrics;

import dev.bottlenose.model.ConstraintMode;
import dev.bottlenose.model.PathSyntaxException;
import dev.bottlenose.model.ResourcePath;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Recursive-descent parser of metric files (grammar in metrics-dsl/README.md). It reports one error per
 * broken clause, then resumes at the next clause keyword, so one pass finds many errors.
 */
final class Parser {
  static final Set<String> CLAUSES = Set.of("description", "unit", "accumulates", "when", "refine", "combine", "report", "form", "value");
  private static final String CLAUSE_LIST = "'description', 'unit', 'accumulates', 'when', 'refine', 'combine', 'report', 'form', 'value'";
  private final SourceText source;
  private final Lexer lexer;
  private final List<DslError> errors;
  private static final int MAX_NESTING = 64;
  /** Binary operators in one clause: {@code a / b / c …} builds a tree as deep as its operators, which the checker walks recursively. */
  private static final int MAX_OPERATORS = 256;
  private Token tok;
  private int nesting;
  private int operators;

  Parser(SourceText source, List<DslError> errors) {
    this.source = source;
    this.lexer = new Lexer(source.text());
    this.errors = errors;
    this.tok = lexer.next(0);
  }

  List<Ast.Metric> parseFile() {
    List<Ast.Metric> metrics = new ArrayList<>();
    while (tok.kind() != Token.Kind.EOF) {
      if (!tok.is("metric")) {
        error(tok, "expected 'metric' starting a metric definition, found " + tok.describe());
        skipTo(true);
        continue;
      }
      Ast.Metric m = metric();
      if (m != null) {
        metrics.add(m);
      }
    }
    return metrics;
  }

  private Ast.Metric metric() {
    int start = tok.start();
    advance();
    if (tok.kind() != Token.Kind.IDENT) {
      error(tok, "expected a metric name ([A-Za-z_][A-Za-z0-9_]*) after 'metric', found " + tok.describe());
      skipTo(true);
      return null;
    }
    Ast.Metric m = new Ast.Metric(tok.text(), tok.start());
    m.start = start;
    advance();
    if (!tok.is("{")) {
      error(tok, "expected '{' after 'metric " + m.name + "', found " + tok.describe());
      skipTo(true);
      return null;
    }
    advance();
    while (!tok.is("}")) {
      if (tok.kind() == Token.Kind.EOF || tok.is("metric")) {
        error(tok, "expected '}' closing metric '" + m.name + "', found " + tok.describe());
        m.broken = true;
        m.end = tok.start();
        return m;
      }
      clause(m);
    }
    m.end = tok.end();
    advance();
    return m;
  }

  private void clause(Ast.Metric m) {
    Token keyword = tok;
    if (!CLAUSES.contains(keyword.text()) || keyword.kind() != Token.Kind.IDENT) {
      error(keyword, "expected a clause (" + CLAUSE_LIST + ") or '}', found " + keyword.describe());
      m.broken = true;
      skipTo(false);
      return;
    }
    if (m.clauseAt.containsKey(keyword.text())) {
      error(keyword, "second '" + keyword.text() + "' clause in metric '" + m.name + "'; each clause is given once");
    }
    m.clauseAt.putIfAbsent(keyword.text(), keyword.start());
    advance();
    try {
      nesting = 0;
      operators = 0;
      clauseBody(m, keyword.text());
    } catch (Syntax e) {
      errors.add(source.error(e.at, e.getMessage()));
      m.broken = true;
      skipTo(false);
    }
  }

  private void clauseBody(Ast.Metric m, String keyword) {
    switch (keyword) {
      case "description":
        m.description = expect(Token.Kind.STRING, "a string in double quotes after 'description'").text();
        break;
      case "unit":
        m.unit = unit();
        break;
      case "accumulates":
        m.accumulates = accumulates();
        break;
      case "when":
        m.when = condition();
        break;
      case "refine":
        m.refine = refinements();
        break;
      case "combine":
        m.combine = choice("combine", "sum", "avg", "min", "max");
        break;
      case "report":
        m.report = choice("report", "total", "rate", "fraction");
        break;
      case "form":
        m.form = choice("form", "any", "interpreted", "c1", "c2", "compiled", "inlined", "native");
        break;
      default:
        m.value = expr();
        break;
    }
  }

  private Ast.Unit unit() {
    Ast.Word top = choice("unit", Units.WORDS.toArray(new String[0]));
    if (!tok.is("/")) {
      return new Ast.Unit(top, null);
    }
    advance();
    return new Ast.Unit(top, choice(top.word() + "/", Units.WORDS.toArray(new String[0])));
  }

  private Ast.Accumulates accumulates() {
    Ast.Word what = choice("accumulates", "calls", "wall_time", "cpu_time", "allocations", "allocated_bytes", "count", "duration", "bytes");
    List<Ast.Word> events = new ArrayList<>();
    if (Set.of("count", "duration", "bytes").contains(what.word())) {
      if (!tok.is("of")) {
        throw new Syntax(tok.start(), "expected 'of' and event names after 'accumulates " + what.word() + "', found " + tok.describe());
      }
      do {
        advance();
        Token name = expect(Token.Kind.IDENT, "an event name (" + String.join(", ", Event.names()) + ")");
        events.add(new Ast.Word(name.text(), name.start()));
      } while (tok.is(","));
    }
    return new Ast.Accumulates(what, events);
  }

  private List<Ast.Refinement> refinements() {
    List<Ast.Refinement> list = new ArrayList<>();
    while (true) {
      Token path = path("a hierarchy root such as /Code or /Threads after 'refine'");
      ResourcePath p = parsePath(path);
      if (!p.isRoot()) {
        throw new Syntax(path.start(), "'refine' names a hierarchy root such as " + p.hierarchy().root() + ", not the path " + path.text());
      }
      ConstraintMode mode = null;
      if (tok.kind() == Token.Kind.IDENT && modeOf(tok.text()) != null) {
        mode = modeOf(tok.text());
        advance();
      }
      list.add(new Ast.Refinement(p.hierarchy(), mode, path.start()));
      if (!tok.is(",")) {
        return list;
      }
      advance();
    }
  }

  private Ast.Cond condition() {
    List<Ast.Cond> parts = new ArrayList<>(List.of(conjunction()));
    while (isWord("or")) {
      advance();
      parts.add(conjunction());
    }
    return parts.size() == 1 ? parts.get(0) : new Ast.Or(parts);
  }

  private Ast.Cond conjunction() {
    List<Ast.Cond> parts = new ArrayList<>(List.of(negation()));
    while (isWord("and")) {
      advance();
      parts.add(negation());
    }
    return parts.size() == 1 ? parts.get(0) : new Ast.And(parts);
  }

  private Ast.Cond negation() {
    if (isWord("not")) {
      enter();
      Ast.Cond c = new Ast.Not(negation());
      nesting--;
      return c;
    }
    if (tok.is("(")) {
      enter();
      Ast.Cond c = condition();
      expectPunct(")", "')' closing the parenthesised condition");
      nesting--;
      return c;
    }
    ConstraintMode mode = null;
    if (tok.kind() == Token.Kind.IDENT && modeOf(tok.text()) != null) {
      mode = modeOf(tok.text());
      advance();
      expectPunct(":", "':' after the constraint mode '" + mode.word() + "'");
    }
    Token path = path("a resource pattern such as /Code/com.acme/** (optionally after exclusive:, inclusive: or caller:), 'not' or '('");
    return new Ast.Literal(mode, parsePath(path), path.start());
  }

  private Ast.Expr expr() {
    Ast.Expr left = term();
    while (tok.is("+") || tok.is("-")) {
      Token op = operator();
      left = new Ast.Binary(op.text().charAt(0), left, term(), op.start());
    }
    return left;
  }

  private Ast.Expr term() {
    Ast.Expr left = factor();
    while (tok.is("*") || tok.is("/")) {
      Token op = operator();
      left = new Ast.Binary(op.text().charAt(0), left, factor(), op.start());
    }
    return left;
  }

  /** Takes a binary operator, counting it against {@link #MAX_OPERATORS}. */
  private Token operator() {
    Token op = tok;
    if (++operators > MAX_OPERATORS) {
      throw new Syntax(op.start(), "more than " + MAX_OPERATORS + " operators in one clause; split the formula into several metrics");
    }
    advance();
    return op;
  }

  private Ast.Expr factor() {
    Token t = tok;
    if (t.is("-")) {
      enter();
      Ast.Expr e = new Ast.Negate(factor(), t.start());
      nesting--;
      return e;
    }
    if (t.is("(")) {
      enter();
      Ast.Expr e = expr();
      expectPunct(")", "')' closing the parenthesised expression");
      nesting--;
      return e;
    }
    if (t.kind() == Token.Kind.NUMBER) {
      double value = Double.parseDouble(t.text());
      if (Double.isInfinite(value)) {
        throw new Syntax(t.start(), "number " + t.text() + " is out of range");
      }
      advance();
      return new Ast.Num(value, t.text(), t.start());
    }
    Token name = expect(Token.Kind.IDENT, "a number, a metric name, a calibration constant, 'program(' or '('");
    if (!name.text().equals("program") || !tok.is("(")) {
      return new Ast.Ref(name.text(), name.start());
    }
    advance();
    Token inner = expect(Token.Kind.IDENT, "a metric name inside 'program(…)'");
    expectPunct(")", "')' closing 'program(" + inner.text() + "'");
    return new Ast.Program(inner.text(), inner.start());
  }

  private Ast.Word choice(String after, String... words) {
    if (tok.kind() == Token.Kind.BAD) {
      throw new Syntax(tok.start(), tok.text());
    }
    for (String w : words) {
      if (tok.kind() == Token.Kind.IDENT && tok.text().equals(w)) {
        Ast.Word word = new Ast.Word(w, tok.start());
        advance();
        return word;
      }
    }
    throw new Syntax(tok.start(), "expected " + quoteList(words) + " after '" + after + "', found " + tok.describe());
  }

  static String quoteList(String... words) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < words.length; i++) {
      sb.append(i == 0 ? "" : i == words.length - 1 ? " or " : ", ").append('\'').append(words[i]).append('\'');
    }
    return sb.toString();
  }

  private Token path(String what) {
    if (tok.kind() == Token.Kind.BAD) {
      throw new Syntax(tok.start(), tok.text());
    }
    if (!tok.is("/")) {
      throw new Syntax(tok.start(), "expected " + what + ", found " + tok.describe());
    }
    Token path = lexer.path(tok.start());
    tok = lexer.next(path.end());
    return path;
  }

  private ResourcePath parsePath(Token path) {
    try {
      return ResourcePath.parse(path.text());
    } catch (PathSyntaxException e) {
      String msg = e.getMessage();
      int cut = msg.lastIndexOf(" at position ");
      throw new Syntax(path.start() + e.position(), (cut > 0 ? msg.substring(0, cut) : msg) + " in " + path.text());
    } catch (IllegalArgumentException e) {
      throw new Syntax(path.start(), e.getMessage());
    }
  }

  private Token expect(Token.Kind kind, String what) {
    if (tok.kind() == Token.Kind.BAD) {
      throw new Syntax(tok.start(), tok.text());
    }
    if (tok.kind() != kind) {
      throw new Syntax(tok.start(), "expected " + what + ", found " + tok.describe());
    }
    Token t = tok;
    advance();
    return t;
  }

  private void expectPunct(String punct, String what) {
    if (!tok.is(punct)) {
      throw new Syntax(tok.start(), "expected " + what + ", found " + tok.describe());
    }
    advance();
  }

  private boolean isWord(String word) {
    return tok.kind() == Token.Kind.IDENT && (tok.text().equals(word) || tok.text().equals(word.toUpperCase(Locale.ROOT)));
  }

  private static ConstraintMode modeOf(String word) {
    for (ConstraintMode m : ConstraintMode.values()) {
      if (m.word().equals(word)) {
        return m;
      }
    }
    return null;
  }

  /** Skips to the next clause keyword (unless {@code metricOnly}), '}' (consumed when metricOnly), 'metric' or the end. */
  private void skipTo(boolean metricOnly) {
    while (tok.kind() != Token.Kind.EOF && !tok.is("metric")) {
      if (tok.is("}")) {
        if (metricOnly) {
          advance();
        }
        return;
      }
      if (!metricOnly && tok.kind() == Token.Kind.IDENT && CLAUSES.contains(tok.text())) {
        return;
      }
      tok = tok.is("/") ? lexer.path(tok.start()) : tok;
      advance();
    }
  }

  private void enter() {
    if (++nesting > MAX_NESTING) {
      throw new Syntax(tok.start(), "nesting deeper than " + MAX_NESTING + " levels; simplify the expression");
    }
    advance();
  }

  private void advance() {
    tok = lexer.next(tok.end());
  }

  private void error(Token at, String message) {
    errors.add(source.error(at.start(), at.kind() == Token.Kind.BAD ? at.text() : message));
  }

  /** A syntax error inside one clause; carries the offset. */
  private static final class Syntax extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final int at;

    Syntax(int at, String message) {
      super(message, null, false, false);
      this.at = at;
    }
  }
}
