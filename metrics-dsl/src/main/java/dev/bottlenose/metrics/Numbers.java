package dev.bottlenose.metrics;

import java.util.Locale;

/**
 * Values as a person reads them: in fixed-point with as many decimals as their magnitude needs for four
 * significant digits, trailing zeros dropped, never in scientific notation ({@code 0.00002}, not {@code 2.000e-05};
 * {@code 12346}, not {@code 1.235e+04}).
 */
public final class Numbers {
  /** The significant digits {@link #plain(double)} keeps. */
  public static final int DIGITS = 4;
  /** The most decimals written: values smaller than this many places read as 0. */
  private static final int MAX_DECIMALS = 12;

  private Numbers() {}

  /** {@code v} with {@link #DIGITS} significant digits in fixed-point; {@code ?} for NaN, {@code infinity} for ±∞. */
  public static String plain(double v) {
    return plain(v, DIGITS);
  }

  /** {@code v} with {@code digits} significant digits (all of its integer digits) in fixed-point. */
  public static String plain(double v, int digits) {
    if (Double.isNaN(v) || Double.isInfinite(v)) {
      return Double.isNaN(v) ? "?" : v > 0 ? "infinity" : "-infinity";
    }
    int magnitude = v == 0 ? 0 : (int) Math.floor(Math.log10(Math.abs(v)));
    int decimals = Math.min(MAX_DECIMALS, Math.max(0, digits - 1 - magnitude));
    String s = String.format(Locale.ROOT, "%." + decimals + "f", v);
    if (s.indexOf('.') >= 0) {
      s = s.replaceAll("0+$", "").replaceAll("\\.$", "");
    }
    return s.matches("-0(\\.0*)?") ? "0" : s;
  }
}
