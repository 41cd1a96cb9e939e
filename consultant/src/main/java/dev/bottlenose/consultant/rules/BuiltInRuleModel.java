package dev.bottlenose.consultant.rules;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.drools.compiler.kie.builder.impl.InternalKieModule;
import org.drools.model.Model;
import org.drools.model.codegen.ExecutableModelProject;
import org.drools.modelcompiler.KieBaseBuilder;
import org.kie.api.KieBase;
import org.kie.api.KieServices;
import org.kie.api.builder.KieBuilder;
import org.kie.api.builder.KieFileSystem;
import org.kie.api.builder.Message;

/**
 * The built-in rules compiled when the consultant is built (not API): Drools's executable model, Java classes that
 * build the rule base without parsing DRL or compiling anything, so a search's JVM makes its rule base in about
 * half a second of CPU rather than one and a half. The build runs {@link #main} after compiling the module; it
 * writes the model's classes beside the module's own and lists the model in {@value #LIST}. {@link RuleBook} loads
 * it from there, and compiles the DRL files itself where the list is missing (a build that skipped the step).
 */
public final class BuiltInRuleModel {
  /** The resource listing the model's classes, one binary class name per line. */
  static final String LIST = "dev/bottlenose/consultant/rules/built-in-rules.model";
  private static final String DRL_PATH = "dev/bottlenose/consultant/rules/";

  private BuiltInRuleModel() {}

  /**
   * The built-in rule base from the model the build made, or null when the class path has no such model. A model
   * listed but not loadable is an error of the build, not a reason to compile the rules again.
   */
  static KieBase load(ClassLoader loader) {
    List<String> names;
    try (InputStream in = loader.getResourceAsStream(LIST)) {
      if (in == null) {
        return null;
      }
      names = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::strip)
          .filter(l -> !l.isEmpty()).toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the built-in rule model's list " + LIST, e);
    }
    List<Model> models = new ArrayList<>();
    for (String name : names) {
      try {
        models.add((Model) Class.forName(name, true, loader).getDeclaredConstructor().newInstance());
      } catch (ReflectiveOperationException | ClassCastException e) {
        throw new IllegalStateException("the built-in rule model lists " + name + ", which cannot be made: " + e, e);
      }
    }
    return KieBaseBuilder.createKieBaseFromModel(models);
  }

  /**
   * Compiles {@link RuleBook#BUILT_IN} (read from the class path) to Drools's executable model and writes its classes
   * and {@value #LIST} under the directory {@code args[0]} (the module's compiled classes).
   */
  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: BuiltInRuleModel <classes directory>");
    }
    Path out = Path.of(args[0]);
    KieServices ks = KieServices.get();
    KieFileSystem files = ks.newKieFileSystem();
    files.generateAndWritePomXML(ks.newReleaseId("dev.bottlenose", "built-in-rules", "1"));
    ClassLoader loader = BuiltInRuleModel.class.getClassLoader();
    for (String name : RuleBook.BUILT_IN) {
      try (InputStream in = loader.getResourceAsStream(DRL_PATH + name)) {
        if (in == null) {
          throw new IllegalStateException("no " + DRL_PATH + name + " on the class path");
        }
        files.write("src/main/resources/" + DRL_PATH + name, in.readAllBytes());
      }
    }
    KieBuilder builder = ks.newKieBuilder(files).buildAll(ExecutableModelProject.class);
    List<Message> errors = builder.getResults().getMessages(Message.Level.ERROR);
    if (!errors.isEmpty()) {
      throw new IllegalStateException("the built-in rules do not compile to the executable model: " + errors);
    }
    byte[] jar = ((InternalKieModule) builder.getKieModule()).getBytes();
    String models = null;
    int classes = 0;
    try (ZipInputStream zip = new ZipInputStream(new ByteArrayInputStream(jar))) {
      for (ZipEntry e = zip.getNextEntry(); e != null; e = zip.getNextEntry()) {
        String name = e.getName();
        if (name.endsWith("/drools-model")) {
          models = new String(zip.readAllBytes(), StandardCharsets.UTF_8);
        } else if (name.startsWith(DRL_PATH) && name.endsWith(".class")) {
          Path file = out.resolve(name);
          Files.createDirectories(file.getParent());
          Files.write(file, zip.readAllBytes());
          classes++;
        }
      }
    }
    if (models == null) {
      throw new IllegalStateException("the executable model's jar names no model class");
    }
    List<String> names = models.lines().map(String::strip).filter(l -> !l.isEmpty() && !l.contains(":")).toList();
    if (names.isEmpty() || classes == 0) {
      throw new IllegalStateException("the executable model's jar holds " + names.size() + " model(s) and " + classes
          + " classes of the rules' package");
    }
    Files.writeString(out.resolve(LIST), String.join("\n", names) + "\n");
  }
}
