package dev.bottlenose.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The class-data archive (HotSpot's AppCDS) the build makes beside each of Bottlenose's two jars: the classes a
 * command loads before it can work (the cluster member, the rules), already parsed and verified. A search
 * starts two of these JVMs (its command and the target's daemon) one after the other, and most of the seconds
 * before it tests anything went into starting them: mapping the archive cut the command's join from 3.8 to 2.6 s
 * and the daemon's start from 3.9 to 3.1 s on the development machine, measured by hand, so a search began
 * about 2 s sooner.
 *
 * <p>The archive is made by {@code java -XX:ArchiveClassesAtExit=… -jar <jar> class-archive-training} when the
 * jar is packaged. It fits that jar file (its path and time stamp) and the JDK that made it; with another,
 * the JVM ignores it and starts as it would without one, quietly (its CDS warnings are turned off here).
 *
 * <p>So an archive cannot travel with its jar: the distribution ({@code dist/}) ships none, and its launcher
 * makes them on first use in the user's cache, then names that directory to the service jar with
 * {@code -Dbottlenose.class-archive.dir} ({@link #DIR_PROPERTY}), where the daemons it starts find theirs.
 */
public final class ClassArchive {
  /** The hidden command each jar runs once at build time to make its archive. */
  public static final String TRAINING_COMMAND = "class-archive-training";
  /** A directory that holds the archives in place of the jars' own directories (the distribution's cache). */
  public static final String DIR_PROPERTY = "bottlenose.class-archive.dir";

  private ClassArchive() {}

  /**
   * Where {@code jar}'s archive is: {@code .jsa} for {@code .jar}, in the directory {@link #DIR_PROPERTY} names,
   * else beside the jar.
   */
  public static Path of(Path jar) {
    String name = jar.getFileName().toString();
    String archive = (name.endsWith(".jar") ? name.substring(0, name.length() - 4) : name) + ".jsa";
    String dir = System.getProperty(DIR_PROPERTY);
    if (dir != null && !dir.isBlank()) {
      return Path.of(dir).toAbsolutePath().resolve(archive);
    }
    return jar.toAbsolutePath().resolveSibling(archive);
  }

  /** The JVM options that map {@code jar}'s archive when there is one; none otherwise. */
  public static List<String> jvmOptions(Path jar) {
    Path archive = of(jar);
    if (!Files.isRegularFile(archive)) {
      return List.of();
    }
    return List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:cds=off", "-Xlog:cds+dynamic=off");
  }
}
