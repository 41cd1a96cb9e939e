package dev.bottlenose.web.cli;

import dev.bottlenose.cli.UsageException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/** {@code --set key=value} (repeatable): search settings, for every command that starts a search. */
final class SettingOptions {
  @Option(names = "--set", paramLabel = "key=value", description = "a search setting (repeatable; consultant/README.md)")
  List<String> set = new ArrayList<>();

  /** The settings in their order, keys and values trimmed. */
  Map<String, String> settings() {
    Map<String, String> settings = new LinkedHashMap<>();
    for (String kv : set) {
      int eq = kv.indexOf('=');
      if (eq <= 0) {
        throw new UsageException("--set '" + kv + "' is not key=value");
      }
      settings.put(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
    }
    return settings;
  }
}
