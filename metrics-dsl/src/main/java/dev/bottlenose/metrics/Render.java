package dev.bottlenose.metrics;

/** Writes conditions and expressions back as metric-file text (fully parenthesised where needed). */
final class Render {

  static String cond(Ast.Cond c) {
    if (c instanceof Ast.Literal l) {
      return (l.mode() == null ? "" : l.mode().word() + ":") + l.pattern();
    }
    if (c instanceof Ast.Not n) {
      return "not " + atom(n.part());
    }
    java.util.List<Ast.Cond> parts = c instanceof Ast.And a ? a.parts() : ((Ast.Or) c).parts();
    String op = c instanceof Ast.And ? " and " : " or ";
    StringBuilder sb = new StringBuilder();
    for (Ast.Cond p : parts) {
      sb.append(sb.length() == 0 ? "" : op).append(atom(p));
    }
    return sb.toString();
  }

  private static String atom(Ast.Cond c) {
    return c instanceof Ast.Literal || c instanceof Ast.Not ? cond(c) : "(" + cond(c) + ")";
  }

  static String expr(Ast.Expr e) {
    if (e instanceof Ast.Num n) {
      return n.text();
    }
    if (e instanceof Ast.Ref r) {
      return r.name();
    }
    if (e instanceof Ast.Program p) {
      return "program(" + p.name() + ")";
    }
    if (e instanceof Ast.Negate n) {
      return "-" + operand(n.operand(), 3);
    }
    Ast.Binary b = (Ast.Binary) e;
    int level = precedence(b.op());
    return operand(b.left(), level) + " " + b.op() + " " + operand(b.right(), level + 1);
  }

  private static String operand(Ast.Expr e, int level) {
    String s = expr(e);
    return e instanceof Ast.Binary b && precedence(b.op()) < level ? "(" + s + ")" : s;
  }

  private static int precedence(char op) {
    return op == '+' || op == '-' ? 1 : 2;
  }

  static String unit(Ast.Unit u) {
    return u.top().word() + (u.bottom() == null ? "" : "/" + u.bottom().word());
  }

  static String roots(java.util.Collection<dev.bottlenose.model.Hierarchy> hierarchies) {
    StringBuilder sb = new StringBuilder();
    for (dev.bottlenose.model.Hierarchy h : hierarchies) {
      sb.append(sb.length() == 0 ? "" : ", ").append(h.root());
    }
    return sb.length() == 0 ? "nothing" : sb.toString();
  }

  static String modes(java.util.Collection<dev.bottlenose.model.ConstraintMode> modes) {
    return Parser.quoteList(modes.stream().map(dev.bottlenose.model.ConstraintMode::word).toArray(String[]::new));
  }

  private Render() {}
}
