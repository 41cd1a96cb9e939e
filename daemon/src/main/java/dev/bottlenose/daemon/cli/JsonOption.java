package dev.bottlenose.daemon.cli;

import dev.bottlenose.model.json.Json;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * {@code --json} of the reading commands (jvms, resources, ledger, metric list and check, measure): the result as
 * one JSON document on stdout instead of the table; {@code measure} writes one JSON object per line as it goes.
 */
final class JsonOption {
  @Option(names = "--json", description = "print JSON instead of text (measure: one JSON object per line)")
  boolean json;

  /** A JSON object of these keys and values, in this order. */
  static Map<String, Object> object(Object... keysAndValues) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i + 1 < keysAndValues.length; i += 2) {
      m.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return m;
  }

  /** Writes {@code value} (maps, lists, strings, numbers, booleans) as one line of JSON. */
  static void print(Console console, Object value) {
    console.out().println(Json.write(value));
  }
}
