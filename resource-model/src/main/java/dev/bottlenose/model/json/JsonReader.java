package dev.bottlenose.model.json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A recursive-descent JSON parser over one string (RFC 8259), with a nesting limit. */
final class JsonReader {
  static final int MAX_DEPTH = 512;

  private final String text;
  private int pos;
  private int depth;

  JsonReader(String text) {
    this.text = text;
  }

  Object readDocument() {
    Object value = readValue();
    skipWhitespace();
    if (pos < text.length()) {
      throw error("expected the end of the input after the value");
    }
    return value;
  }

  private Object readValue() {
    skipWhitespace();
    if (pos >= text.length()) {
      throw error("expected a value");
    }
    char c = text.charAt(pos);
    switch (c) {
      case '{':
        return readObject();
      case '[':
        return readArray();
      case '"':
        return readString();
      case 't':
        return literal("true", Boolean.TRUE);
      case 'f':
        return literal("false", Boolean.FALSE);
      case 'n':
        return literal("null", null);
      default:
        if (c == '-' || (c >= '0' && c <= '9')) {
          return readNumber();
        }
        throw error("expected a value (object, array, string, number, true, false or null)");
    }
  }

  private Map<String, Object> readObject() {
    enter();
    Map<String, Object> map = new LinkedHashMap<>();
    pos++;
    skipWhitespace();
    if (peek() == '}') {
      pos++;
      depth--;
      return map;
    }
    while (true) {
      skipWhitespace();
      if (peek() != '"') {
        throw error("expected a string key");
      }
      int keyAt = pos;
      String key = readString();
      skipWhitespace();
      expect(':', "expected ':' after the key");
      if (map.containsKey(key)) {
        throw new JsonException("duplicate key '" + key + "'", keyAt);
      }
      map.put(key, readValue());
      skipWhitespace();
      if (peek() == '}') {
        pos++;
        depth--;
        return map;
      }
      expect(',', "expected ',' or '}' in object");
    }
  }

  private List<Object> readArray() {
    enter();
    List<Object> list = new ArrayList<>();
    pos++;
    skipWhitespace();
    if (peek() == ']') {
      pos++;
      depth--;
      return list;
    }
    while (true) {
      list.add(readValue());
      skipWhitespace();
      if (peek() == ']') {
        pos++;
        depth--;
        return list;
      }
      expect(',', "expected ',' or ']' in array");
    }
  }

  private void enter() {
    if (++depth > MAX_DEPTH) {
      throw error("nesting deeper than " + MAX_DEPTH + " levels");
    }
  }

  private String readString() {
    int start = ++pos;
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (c == '"') {
        return text.substring(start, pos++);
      }
      if (c == '\\') {
        return readEscapedString(start);
      }
      if (c < 0x20) {
        throw error("expected an escape sequence instead of a raw control character in a string");
      }
      pos++;
    }
    throw new JsonException("unterminated string starting", start - 1);
  }

  private String readEscapedString(int start) {
    StringBuilder sb = new StringBuilder(pos - start + 16).append(text, start, pos);
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (c == '"') {
        pos++;
        return sb.toString();
      }
      if (c < 0x20) {
        throw error("expected an escape sequence instead of a raw control character in a string");
      }
      if (c == '\\') {
        sb.append(readEscape());
      } else {
        sb.append(c);
        pos++;
      }
    }
    throw new JsonException("unterminated string starting", start - 1);
  }

  private char readEscape() {
    int at = pos;
    if (pos + 1 >= text.length()) {
      throw error("expected an escape character after '\\'");
    }
    char e = text.charAt(pos + 1);
    pos += 2;
    switch (e) {
      case '"':
      case '\\':
      case '/':
        return e;
      case 'b':
        return '\b';
      case 'f':
        return '\f';
      case 'n':
        return '\n';
      case 'r':
        return '\r';
      case 't':
        return '\t';
      case 'u':
        return readHex4(at);
      default:
        throw new JsonException("invalid escape '\\" + e + "'; expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\u and four hex digits", at);
    }
  }

  private char readHex4(int at) {
    if (pos + 4 > text.length()) {
      throw new JsonException("expected 4 hex digits after '\\u'", at);
    }
    int v = 0;
    for (int i = 0; i < 4; i++) {
      int d = Character.digit(text.charAt(pos + i), 16);
      if (d < 0) {
        throw new JsonException("expected 4 hex digits after '\\u'", at);
      }
      v = v * 16 + d;
    }
    pos += 4;
    return (char) v;
  }

  private Object readNumber() {
    int start = pos;
    if (peek() == '-') {
      pos++;
    }
    if (peek() == '0') {
      pos++;
    } else if (!digits()) {
      throw error("expected a digit");
    }
    boolean integer = true;
    if (peek() == '.') {
      pos++;
      integer = false;
      if (!digits()) {
        throw error("expected a digit after '.'");
      }
    }
    if (peek() == 'e' || peek() == 'E') {
      pos++;
      integer = false;
      if (peek() == '+' || peek() == '-') {
        pos++;
      }
      if (!digits()) {
        throw error("expected a digit in the exponent");
      }
    }
    return integer ? integer(start) : decimal(start);
  }

  private Double decimal(int start) {
    double d = Double.parseDouble(text.substring(start, pos));
    if (Double.isInfinite(d)) {
      throw new JsonException("number out of the range of a double", start);
    }
    return d;
  }

  private Object integer(int start) {
    int length = pos - start;
    if (length < 19) {
      long v = 0;
      boolean negative = text.charAt(start) == '-';
      for (int i = negative ? start + 1 : start; i < pos; i++) {
        v = v * 10 + (text.charAt(i) - '0');
      }
      return negative ? -v : v;
    }
    String s = text.substring(start, pos);
    try {
      return Long.parseLong(s);
    } catch (NumberFormatException tooBig) {
      return decimal(start);
    }
  }

  private boolean digits() {
    int start = pos;
    while (pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') {
      pos++;
    }
    return pos > start;
  }

  private Object literal(String word, Object value) {
    if (!text.startsWith(word, pos)) {
      throw error("expected a value (object, array, string, number, true, false or null)");
    }
    pos += word.length();
    return value;
  }

  private void expect(char c, String problem) {
    if (peek() != c) {
      throw error(problem);
    }
    pos++;
  }

  private int peek() {
    return pos < text.length() ? text.charAt(pos) : -1;
  }

  private void skipWhitespace() {
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return;
      }
      pos++;
    }
  }

  private JsonException error(String problem) {
    String found = pos >= text.length() ? "end of input" : "'" + text.charAt(pos) + "'";
    return new JsonException(problem + " but found " + found, pos);
  }
}
