package dev.bottlenose.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** The Bottlenose version (the build's project version), for every command's {@code --version}. */
public final class Version implements IVersionProvider {
  private static final String VERSION = load();

  /** {@code 0.1.0-SNAPSHOT}, or {@code unknown} when the build wrote none. */
  public static String number() {
    return VERSION;
  }

  @Override
  public String[] getVersion() {
    return new String[] {"bottlenose " + VERSION};
  }

  private static String load() {
    try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
      if (in == null) {
        return "unknown";
      }
      Properties p = new Properties();
      p.load(in);
      return p.getProperty("version", "unknown");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
