package dev.bottlenose.web.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --data DIR}: where searches are saved and read, for every command that keeps them. */
final class DataOption {
  @Option(names = "--data", paramLabel = "DIR", description = "where searches are saved (default: data/searches)")
  String data = "data/searches";

  Path directory() {
    return Path.of(data);
  }
}
