package dev.bottlenose.web.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import dev.bottlenose.cli.Version;
import dev.bottlenose.consultant.SavedSearch;
import dev.bottlenose.consultant.SavedSearch.Stacks.Frame;
import io.vertx.core.json.JsonObject;
import io.vertx.json.schema.Draft;
import io.vertx.json.schema.JsonSchema;
import io.vertx.json.schema.JsonSchemaOptions;
import io.vertx.json.schema.OutputUnit;
import io.vertx.json.schema.Validator;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

/**
 * A small tree of stacks in each export format, to the byte for the text ones; pprof read back with protobuf-java,
 * speedscope's file with speedscope's schema.
 */
class StackExportsTest {
  private static final String MAIN = "/Code/com.acme/Main/main([Ljava/lang/String;)V";
  private static final String GET = "/Code/com.acme/Cache/get(Ljava/lang/Object;)Ljava/lang/Object;";

  /** main has 1 sample of its own and 1 in a callee left out of the tree. */
  private static final SavedSearch.Stacks CPU = new SavedSearch.Stacks("vm-1", "cpu", 10, List.of(
      new Frame(-1, "/Code", 10, 0),
      new Frame(0, MAIN, 10, 1),
      new Frame(1, GET, 6, 4),
      new Frame(2, "/Code/java.util/HashMap/hash(Ljava/lang/Object;)I", 2, 2),
      new Frame(1, "/Code/com.acme/Cache/put(ILjava/lang/String;)V", 2, 2)));
  private static final SavedSearch.Stacks SYNC = new SavedSearch.Stacks("vm-1", "sync", 3, List.of(
      new Frame(-1, "/Code", 3, 0), new Frame(0, GET, 3, 3)));
  private static final SavedSearch.Stacks OTHER = new SavedSearch.Stacks("vm-2", "cpu", 1, List.of(
      new Frame(-1, "/Code", 1, 0), new Frame(0, MAIN, 1, 1)));
  /** Listed sync first: a speedscope file still lists cpu first. */
  private static final SavedSearch SEARCH = Graphs.saved("s-1", "vm-1,vm-2").withStacks(List.of(SYNC, CPU, OTHER));

  private static final String COLLAPSED = """
      com.acme.Main.main(String[]) 1
      com.acme.Main.main(String[]);[frames not kept] 1
      com.acme.Main.main(String[]);com.acme.Cache.get(Object) 4
      com.acme.Main.main(String[]);com.acme.Cache.get(Object);java.util.HashMap.hash(Object) 2
      com.acme.Main.main(String[]);com.acme.Cache.put(int, String) 2
      """;

  @Test
  void collapsedIsALinePerStackThatSamplesEndInOutermostFirst() {
    assertThat(StackExports.collapsed(CPU)).isEqualTo(COLLAPSED);
  }

  @Test
  void framesReadAsInJavaAndHiddenClassesThatReadAlikeShareALine() {
    assertThat(StackExports.name("/Code/diag.Run$$Lambda$6+0x00007f7288007220/1265094477/run()V"))
        .isEqualTo("diag.Run$$Lambda.run()");
    assertThat(StackExports.name("[unknown]")).isEqualTo("[unknown]");
    SavedSearch.Stacks lambdas = new SavedSearch.Stacks("vm-1", "cpu", 3, List.of(
        new Frame(-1, "/Code", 3, 1),
        new Frame(0, "/Code/com.acme.Main$$Lambda$6+0x00007f7288007220/11/run()V", 1, 1),
        new Frame(0, "/Code/com.acme.Main$$Lambda$7+0x00007f7288007860/22/run()V", 1, 1)));
    assertThat(StackExports.collapsed(lambdas)).isEqualTo("[frames not kept] 1\ncom.acme.Main$$Lambda.run() 2\n");
  }

  @Test
  void speedscopeHasAProfilePerGraphOfOneJvmWithSharedFrames() {
    String expected = ("{'$schema':'https://www.speedscope.app/file-format-schema.json','shared':{'frames':["
        + "{'name':'com.acme.Main.main(String[])'},{'name':'[frames not kept]'},{'name':'com.acme.Cache.get(Object)'},"
        + "{'name':'java.util.HashMap.hash(Object)'},{'name':'com.acme.Cache.put(int, String)'}]},'profiles':["
        + "{'type':'sampled','name':'vm-1 cpu','unit':'none','startValue':0,'endValue':10,"
        + "'samples':[[0],[0,1],[0,2],[0,2,3],[0,4]],'weights':[1,1,4,2,2]},"
        + "{'type':'sampled','name':'vm-1 sync','unit':'none','startValue':0,'endValue':3,"
        + "'samples':[[2]],'weights':[3]}],"
        + "'name':'search s-1, vm-1','activeProfileIndex':0,'exporter':'bottlenose " + Version.number() + "'}\n")
        .replace('\'', '"');
    assertThat(StackExports.speedscope(SEARCH, null)).isEqualTo(expected);
    assertThat(StackExports.speedscope(SEARCH, "vm-2")).contains("'name':'vm-2 cpu'".replace('\'', '"'))
        .doesNotContain("sync");
  }

  /** The export read back by speedscope's own schema of its file format (src/test/resources/speedscope). */
  @Test
  void speedscopeIsValidBySpeedscopesOwnSchema() throws Exception {
    JsonObject schema;
    try (InputStream in = StackExportsTest.class.getResourceAsStream("/speedscope/file-format-schema.json")) {
      schema = new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
    Validator validator = Validator.create(JsonSchema.of(schema),
        new JsonSchemaOptions().setDraft(Draft.DRAFT7).setBaseUri("https://www.speedscope.app/"));
    for (String daemon : new String[] {null, "vm-2"}) {
      OutputUnit result = validator.validate(new JsonObject(StackExports.speedscope(SEARCH, daemon)));
      assertThat(result.getValid()).as(daemon + ": " + result.getErrors()).isTrue();
    }
    // the schema is no formality: a sample's frame given by name, or a profile without weights, breaks it
    JsonObject byName = new JsonObject(StackExports.speedscope(SEARCH, null));
    byName.getJsonArray("profiles").getJsonObject(0).getJsonArray("samples").getJsonArray(0).set(0, "main");
    assertThat(validator.validate(byName).getValid()).isFalse();
    JsonObject unweighted = new JsonObject(StackExports.speedscope(SEARCH, null));
    unweighted.getJsonArray("profiles").getJsonObject(1).remove("weights");
    assertThat(validator.validate(unweighted).getValid()).isFalse();
  }

  @Test
  void pprofReadsBackWithProfileProtoAsTheSameStacks() throws Exception {
    DynamicMessage profile = DynamicMessage.parseFrom(profileProto(), gunzip(StackExports.pprof(SEARCH, CPU)));
    assertThat(profile.getUnknownFields().asMap()).as("fields profile.proto does not have").isEmpty();
    List<?> strings = list(profile, "string_table");
    assertThat(strings.get(0)).isEqualTo("");
    DynamicMessage type = (DynamicMessage) list(profile, "sample_type").get(0);
    assertThat(List.of(string(strings, type, "type"), string(strings, type, "unit")))
        .containsExactly("samples", "count");
    assertThat(strings.get(Math.toIntExact((Long) list(profile, "comment").get(0))))
        .isEqualTo("search s-1, vm-1, cpu samples");
    assertThat(number(profile, "time_nanos")).isEqualTo(SEARCH.endedAtMillis() * 1_000_000L);

    Map<Long, String> functions = new HashMap<>();
    Map<Long, String> systemNames = new HashMap<>();
    for (Object o : list(profile, "function")) {
      DynamicMessage f = (DynamicMessage) o;
      functions.put(number(f, "id"), string(strings, f, "name"));
      systemNames.put(number(f, "id"), string(strings, f, "system_name"));
    }
    assertThat(systemNames).containsValues(MAIN, GET);
    Map<Long, String> locations = new HashMap<>();
    for (Object o : list(profile, "location")) {
      DynamicMessage l = (DynamicMessage) o;
      DynamicMessage line = (DynamicMessage) list(l, "line").get(0);
      locations.put(number(l, "id"), functions.get(number(line, "function_id")));
    }
    Map<String, Long> stacks = new LinkedHashMap<>();
    long sum = 0;
    for (Object o : list(profile, "sample")) {
      DynamicMessage s = (DynamicMessage) o;
      List<String> names = new ArrayList<>();
      list(s, "location_id").forEach(id -> names.add(locations.get((Long) id)));
      Collections.reverse(names);
      long value = (Long) list(s, "value").get(0);
      stacks.put(String.join(";", names), value);
      sum += value;
    }
    assertThat(sum).isEqualTo(CPU.samples());
    StringBuilder lines = new StringBuilder();
    stacks.forEach((stack, value) -> lines.append(stack).append(' ').append(value).append('\n'));
    assertThat(lines.toString()).isEqualTo(COLLAPSED);
  }

  @Test
  void theExportFormatsNameWhatIsMissingOrWrong() {
    assertThat(SearchExport.named("pprof")).isEqualTo(SearchExport.PPROF);
    assertThatThrownBy(() -> SearchExport.named("png")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown export format 'png': expected json, dot, svg, collapsed, speedscope, pprof or jfr");
    assertThatThrownBy(() -> SearchExport.COLLAPSED.write(SEARCH, null, "heap"))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("graph must be one of cpu, wait, sync, io, alloc, is 'heap'");
    assertThatThrownBy(() -> SearchExport.PPROF.write(SEARCH, "vm-2", "io")).isInstanceOf(NoSuchElementException.class)
        .hasMessage("search 's-1' kept no io stacks of vm-2");
    assertThatThrownBy(() -> SearchExport.SPEEDSCOPE.write(Graphs.saved("s-2", "vm-1"), null, "cpu"))
        .isInstanceOf(NoSuchElementException.class).hasMessage("search 's-2' kept no stacks");
    SearchExport.Output collapsed = SearchExport.COLLAPSED.write(SEARCH, null, "cpu");
    assertThat(collapsed.fileName()).isEqualTo("s-1-vm-1-cpu.collapsed.txt");
    assertThat(collapsed.contentType()).startsWith("text/plain");
    assertThat(SearchExport.PPROF.write(SEARCH, "vm-2", "cpu").fileName()).isEqualTo("s-1-vm-2-cpu.pb.gz");
  }

  @Test
  void aFrameBeforeItsParentIsAnError() {
    SavedSearch.Stacks bad = new SavedSearch.Stacks("vm-1", "cpu", 1,
        List.of(new Frame(-1, "/Code", 1, 0), new Frame(1, MAIN, 1, 1)));
    assertThatThrownBy(() -> StackExports.collapsed(bad)).hasMessageContaining("frame 1 comes before its parent 1");
  }

  private static byte[] gunzip(byte[] bytes) throws Exception {
    try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
      return in.readAllBytes();
    }
  }

  private static List<?> list(DynamicMessage m, String field) {
    return (List<?>) m.getField(m.getDescriptorForType().findFieldByName(field));
  }

  private static long number(DynamicMessage m, String field) {
    return (Long) m.getField(m.getDescriptorForType().findFieldByName(field));
  }

  /** A string the field's index in the string table names. */
  private static String string(List<?> strings, DynamicMessage m, String field) {
    return (String) strings.get(Math.toIntExact(number(m, field)));
  }

  /** The messages of google/pprof's profile.proto that the export writes, with its field numbers and types. */
  private static Descriptor profileProto() throws Exception {
    FieldDescriptorProto.Type int64 = FieldDescriptorProto.Type.TYPE_INT64;
    FieldDescriptorProto.Type uint64 = FieldDescriptorProto.Type.TYPE_UINT64;
    FileDescriptorProto file = FileDescriptorProto.newBuilder().setName("profile.proto")
        .setPackage("perftools.profiles").setSyntax("proto3")
        .addMessageType(DescriptorProto.newBuilder().setName("Profile")
            .addField(message("sample_type", 1, "ValueType", true))
            .addField(message("sample", 2, "Sample", true))
            .addField(message("mapping", 3, "Mapping", true))
            .addField(message("location", 4, "Location", true))
            .addField(message("function", 5, "Function", true))
            .addField(field("string_table", 6, FieldDescriptorProto.Type.TYPE_STRING, true))
            .addField(field("drop_frames", 7, int64, false))
            .addField(field("keep_frames", 8, int64, false))
            .addField(field("time_nanos", 9, int64, false))
            .addField(field("duration_nanos", 10, int64, false))
            .addField(message("period_type", 11, "ValueType", false))
            .addField(field("period", 12, int64, false))
            .addField(field("comment", 13, int64, true))
            .addField(field("default_sample_type", 14, int64, false)))
        .addMessageType(DescriptorProto.newBuilder().setName("ValueType")
            .addField(field("type", 1, int64, false))
            .addField(field("unit", 2, int64, false)))
        .addMessageType(DescriptorProto.newBuilder().setName("Sample")
            .addField(field("location_id", 1, uint64, true))
            .addField(field("value", 2, int64, true))
            .addField(message("label", 3, "Label", true)))
        .addMessageType(DescriptorProto.newBuilder().setName("Label")
            .addField(field("key", 1, int64, false))
            .addField(field("str", 2, int64, false))
            .addField(field("num", 3, int64, false))
            .addField(field("num_unit", 4, int64, false)))
        .addMessageType(DescriptorProto.newBuilder().setName("Mapping")
            .addField(field("id", 1, uint64, false)))
        .addMessageType(DescriptorProto.newBuilder().setName("Location")
            .addField(field("id", 1, uint64, false))
            .addField(field("mapping_id", 2, uint64, false))
            .addField(field("address", 3, uint64, false))
            .addField(message("line", 4, "Line", true))
            .addField(field("is_folded", 5, FieldDescriptorProto.Type.TYPE_BOOL, false)))
        .addMessageType(DescriptorProto.newBuilder().setName("Line")
            .addField(field("function_id", 1, uint64, false))
            .addField(field("line", 2, int64, false)))
        .addMessageType(DescriptorProto.newBuilder().setName("Function")
            .addField(field("id", 1, uint64, false))
            .addField(field("name", 2, int64, false))
            .addField(field("system_name", 3, int64, false))
            .addField(field("filename", 4, int64, false))
            .addField(field("start_line", 5, int64, false)))
        .build();
    return FileDescriptor.buildFrom(file, new FileDescriptor[0]).findMessageTypeByName("Profile");
  }

  private static FieldDescriptorProto field(String name, int number, FieldDescriptorProto.Type type, boolean repeated) {
    FieldDescriptorProto.Label label = repeated ? FieldDescriptorProto.Label.LABEL_REPEATED
        : FieldDescriptorProto.Label.LABEL_OPTIONAL;
    return FieldDescriptorProto.newBuilder().setName(name).setNumber(number).setType(type).setLabel(label).build();
  }

  private static FieldDescriptorProto message(String name, int number, String type, boolean repeated) {
    return field(name, number, FieldDescriptorProto.Type.TYPE_MESSAGE, repeated).toBuilder()
        .setTypeName(".perftools.profiles." + type).build();
  }
}
