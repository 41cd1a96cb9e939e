package dev.bottlenose.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.bottlenose.tests.harness.OtherUser;
import dev.bottlenose.tests.harness.TargetJvm;
import dev.bottlenose.tests.workloads.SleepyWorkload;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The distribution the build made (dist/target/bottlenose-VERSION.tar.gz) as a user installs it: unpacked outside
 * the source tree, run through symlinks from another directory with a fresh home, with only java (a {@code mvn}
 * on the PATH that would tell if it ran), against a real target JVM.
 */
class DistributionTest {
  private static final Path ARCHIVE = Path.of(System.getProperty("bottlenose.dist.archive", "")).toAbsolutePath();
  private static final Path SOURCE_TREE = Path.of("..").toAbsolutePath().normalize();
  private static final String JAVA_HOME = System.getProperty("java.home");

  @TempDir
  static Path outside;
  /** The unpacked distribution's top directory, {@code bottlenose-VERSION}. */
  private static Path installed;

  @BeforeAll
  static void unpack() throws Exception {
    assertThat(ARCHIVE).as("the distribution (mvn package builds it in dist/)").isRegularFile();
    assertThat(outside.toRealPath().startsWith(SOURCE_TREE.toRealPath())).as(outside + " is in the source tree").isFalse();
    Path opt = Files.createDirectories(outside.resolve("opt"));
    Result tar = run(List.of("tar", "-xzf", ARCHIVE.toString(), "-C", opt.toString()), opt, Map.of());
    assertThat(tar.code).as(tar.err).isZero();
    try (Stream<Path> top = Files.list(opt)) {
      List<Path> dirs = top.toList();
      assertThat(dirs).hasSize(1);
      installed = dirs.get(0);
    }
    assertThat(installed.getFileName().toString()).isEqualTo(ARCHIVE.getFileName().toString().replace(".tar.gz", ""));
    for (String file : List.of("bin/bottlenose", "lib/bottlenose-daemon-all.jar", "lib/bottlenose-web-all.jar",
        "lib/bottlenose-agent.jar", "share/bash-completion/completions/bottlenose", "LICENSE", "NOTICE", "README.md")) {
      assertThat(installed.resolve(file)).isRegularFile();
    }
    assertThat(Files.isExecutable(installed.resolve("bin/bottlenose"))).isTrue();
    assertThat(Files.readString(installed.resolve("LICENSE"))).contains("Apache License", "Version 2.0, January 2004");
  }

  @Test
  void runsFromAnywhereThroughSymlinksWithOnlyJavaAgainstARealTarget() throws Exception {
    Path home = Files.createDirectories(outside.resolve("home"));
    Path work = Files.createDirectories(outside.resolve("work"));
    // ~/bin/bottlenose -> the installed bin/bottlenose, and a relative symlink to that symlink
    Path userBin = Files.createDirectories(home.resolve("bin"));
    Path link = Files.createSymbolicLink(userBin.resolve("bottlenose"), installed.resolve("bin/bottlenose"));
    Path relative = Files.createSymbolicLink(work.resolve("bn"), work.relativize(link));
    // a mvn first on the PATH that leaves a mark: the launcher must not run Maven
    Path fakeBin = Files.createDirectories(outside.resolve("fake-bin"));
    Path mvnRan = outside.resolve("mvn-ran");
    Files.writeString(fakeBin.resolve("mvn"), "#!/bin/sh\ntouch " + mvnRan + "\nexit 1\n");
    Files.setPosixFilePermissions(fakeBin.resolve("mvn"), PosixFilePermissions.fromString("rwxr-xr-x"));
    Map<String, String> env = Map.of("HOME", home.toString(), "JAVA_HOME", JAVA_HOME,
        "PATH", fakeBin + ":/usr/local/bin:/usr/bin:/bin");

    Result version = run(List.of(link.toString(), "--version"), work, env);
    assertThat(version.code).as(version.err).isZero();
    // the version the build put in the jars is the one in the directory's name
    assertThat(version.out).matches("bottlenose \\S+\\R").doesNotContain("unknown");
    assertThat("bottlenose-" + version.out.strip().substring("bottlenose ".length()))
        .isEqualTo(installed.getFileName().toString());

    try (TargetJvm target = TargetJvm.start(TargetJvm.Jdk.JDK17, SleepyWorkload.class)) {
      Result jvms = run(List.of(relative.toString(), "jvms", "--json"), work, env);
      assertThat(jvms.code).as(jvms.err).isZero();
      JsonArray listed = new JsonObject(jvms.out).getJsonArray("jvms");
      assertThat(listed.stream().map(j -> ((JsonObject) j).getLong("pid"))).contains(target.pid());
      // the first command made the daemon jar's class-data archive in the fresh home's cache
      assertThat(jvms.err).contains("making the class-data archives");
      assertThat(archives(home.resolve(".cache"))).extracting(p -> p.getFileName().toString())
          .containsExactly("bottlenose-daemon-all.jsa");

      // found on the PATH, as a shell finds it
      Result resources = run(List.of("/usr/bin/env", "bn", "resources", "--pid", Long.toString(target.pid()), "/Code", "--depth", "1",
          "--json"), work, withPath(env, work));
      assertThat(resources.code).as(resources.err).isZero();
      assertThat(resources.err).doesNotContain("making the class-data archives");
      JsonObject tree = new JsonObject(resources.out);
      assertThat(tree.getLong("pid")).isEqualTo(target.pid());
      assertThat(tree.getJsonArray("resources").stream().map(r -> ((JsonObject) r).getString("path")))
          .anyMatch(p -> p.contains("dev.bottlenose.tests.workloads"));
    }

    // the archive made in the cache is the one the JVM maps (a moved jar's archive from the build would not be)
    Map<String, String> logging = new java.util.HashMap<>(env);
    logging.put("JAVA_TOOL_OPTIONS", "-Xlog:class+load=info");
    Result mapped = run(List.of(link.toString(), "--version"), work, logging);
    assertThat(mapped.code).as(mapped.err).isZero();
    assertThat(mapped.out).contains("dev.bottlenose.cli.Cli source: shared objects file (top)");
    assertThat(mvnRan).doesNotExist();
    assertThat(installed.resolve("lib")).isDirectoryNotContaining("glob:**.jsa");
  }

  @Test
  void saysWhatIsMissingWhenThereIsNoSuitableJava() throws Exception {
    Path work = Files.createDirectories(outside.resolve("no-java"));
    Path bin = installed.resolve("bin/bottlenose");
    // a PATH with the shell and the tools the launcher uses before it looks for java, but no java
    Path tools = Files.createDirectories(work.resolve("tools"));
    for (String tool : List.of("bash", "dirname", "readlink", "basename")) {
      Files.createSymbolicLink(tools.resolve(tool), Path.of("/bin").resolve(tool).toRealPath());
    }
    Result none = run(List.of(bin.toString(), "jvms"), work, Map.of("HOME", work.toString(), "PATH", tools.toString()));
    assertThat(none.code).isEqualTo(1);
    assertThat(none.err).contains("no java found").contains("JDK 17 or newer").contains("JAVA_HOME");

    Map<String, String> system = Map.of("HOME", work.toString(), "PATH", "/usr/bin:/bin");
    Result empty = run(List.of(bin.toString(), "jvms"), work, with(system, "JAVA_HOME", work.toString()));
    assertThat(empty.code).isEqualTo(1);
    assertThat(empty.err).contains("JAVA_HOME is " + work + ", which has no bin/java");

    Path old = fakeJava(work.resolve("jdk11"), "11.0.2", "java.base jdk.attach");
    Result tooOld = run(List.of(bin.toString(), "jvms"), work, with(system, "JAVA_HOME", old.toString()));
    assertThat(tooOld.code).isEqualTo(1);
    assertThat(tooOld.err).contains("Java 11.0.2").contains("needs a JDK 17 or newer");

    Path jre = fakeJava(work.resolve("jre17"), "17.0.9", "java.base java.logging");
    Result runtime = run(List.of(bin.toString(), "jvms"), work, with(system, "JAVA_HOME", jre.toString()));
    assertThat(runtime.code).isEqualTo(1);
    assertThat(runtime.err).contains("without the jdk.attach module");
  }

  @Test
  void anotherUserRunsItWithACacheOfTheirOwn() throws Exception {
    assumeTrue(OtherUser.available(), "needs root and setpriv to run the launcher as another user");
    for (Path p = installed; !p.equals(outside.getParent()); p = p.getParent()) {
      Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    Path home = Files.createDirectories(outside.resolve("other-home"));
    Files.setAttribute(home, "unix:uid", OtherUser.UID);
    Files.setAttribute(home, "unix:gid", OtherUser.UID);
    Result jvms = run(List.of("/usr/bin/setpriv", "--reuid=" + OtherUser.UID, "--regid=" + OtherUser.UID,
        "--clear-groups", "--inh-caps=-all", "--", installed.resolve("bin/bottlenose").toString(), "jvms", "--json"),
        home, Map.of("HOME", home.toString(), "JAVA_HOME", JAVA_HOME, "PATH", "/usr/bin:/bin"));
    assertThat(jvms.code).as(jvms.err).isZero();
    assertThat(new JsonObject(jvms.out).getJsonArray("jvms")).isNotNull();
    List<Path> made = archives(home.resolve(".cache"));
    assertThat(made).extracting(p -> p.getFileName().toString()).containsExactly("bottlenose-daemon-all.jsa");
    assertThat(Files.getAttribute(made.get(0), "unix:uid")).isEqualTo(OtherUser.UID);
  }

  /** A Java home whose release file says {@code version} and {@code modules}, with a bin/java that is never run. */
  private static Path fakeJava(Path home, String version, String modules) throws IOException {
    Files.createDirectories(home.resolve("bin"));
    Files.writeString(home.resolve("bin/java"), "#!/bin/sh\necho should not run >&2\nexit 99\n");
    Files.setPosixFilePermissions(home.resolve("bin/java"), PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.writeString(home.resolve("release"), "JAVA_VERSION=\"" + version + "\"\nMODULES=\"" + modules + "\"\n");
    return home;
  }

  private static List<Path> archives(Path cache) throws IOException {
    if (!Files.isDirectory(cache)) {
      return List.of();
    }
    try (Stream<Path> all = Files.walk(cache)) {
      return all.filter(p -> p.toString().endsWith(".jsa")).toList();
    }
  }

  private static Map<String, String> with(Map<String, String> env, String key, String value) {
    Map<String, String> m = new java.util.HashMap<>(env);
    m.put(key, value);
    return m;
  }

  private static Map<String, String> withPath(Map<String, String> env, Path first) {
    return with(env, "PATH", first + ":" + env.get("PATH"));
  }

  private record Result(int code, String out, String err) {}

  /** Runs {@code cmd} in {@code dir} with exactly the environment {@code env}. */
  private static Result run(List<String> cmd, Path dir, Map<String, String> env) throws IOException, InterruptedException {
    Path out = Files.createTempFile(outside, "out", ".txt");
    Path err = Files.createTempFile(outside, "err", ".txt");
    ProcessBuilder pb = new ProcessBuilder(new ArrayList<>(cmd)).directory(dir.toFile())
        .redirectOutput(out.toFile()).redirectError(err.toFile());
    pb.environment().clear();
    pb.environment().putAll(env);
    Process p = pb.start();
    if (!p.waitFor(180, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor();
      throw new AssertionError(cmd + " did not end within 180 s; stderr: " + Files.readString(err));
    }
    return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }
}
