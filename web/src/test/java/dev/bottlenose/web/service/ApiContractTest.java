package dev.bottlenose.web.service;

import static dev.bottlenose.web.service.RestApiTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bottlenose.bus.protocol.DaemonRequests;
import dev.bottlenose.consultant.SearchStore;
import dev.bottlenose.web.render.Graphs;
import dev.bottlenose.web.render.SearchExport;
import dev.bottlenose.web.render.StackExports;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.openapi.contract.OpenAPIContract;
import io.vertx.openapi.contract.Operation;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract, openapi.yaml: served behind the token, read by vertx-openapi's own parser, the same operations as the
 * router serves, and what a request that breaks it is told.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ApiContractTest {
  private static final String TOKEN = "contract-T0ken.0123456789";
  private static final String[] BEARER = {"Authorization", "Bearer " + TOKEN};
  @TempDir
  static Path data;
  private ServiceFixture f;

  @BeforeAll
  void start() throws Exception {
    new SearchStore(data).save(Graphs.saved("hot-1", "vm-42"));
    f = new ServiceFixture(data, TOKEN);
  }

  @AfterAll
  void stop() throws Exception {
    f.close();
  }

  @Test
  void theServedDocumentParsesWithTheLibrarysOwnParser() throws Exception {
    assertThat(f.get("/api/openapi.yaml").statusCode()).as("behind the token").isEqualTo(401);
    HttpResponse<String> yaml = f.get("/api/openapi.yaml", BEARER);
    assertThat(yaml.statusCode()).isEqualTo(200);
    assertThat(yaml.headers().firstValue("content-type")).hasValue("application/yaml; charset=utf-8");
    Path file = Files.writeString(data.resolve("served-openapi.yaml"), yaml.body(), StandardCharsets.UTF_8);
    OpenAPIContract fromYaml = await(OpenAPIContract.from(f.vertx, file.toString()));
    assertThat(fromYaml.getVersion().name()).isEqualTo("V3_1");

    HttpResponse<String> json = f.get("/api/openapi.json", BEARER);
    assertThat(json.statusCode()).isEqualTo(200);
    assertThat(json.headers().firstValue("content-type"))
        .hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
    OpenAPIContract fromJson = await(OpenAPIContract.from(f.vertx, new JsonObject(json.body())));
    assertThat(operations(fromJson)).isEqualTo(operations(fromYaml)).hasSizeGreaterThan(20);
  }

  @Test
  void everyApiRouteIsInTheContractAndEveryOperationInItIsServed() throws Exception {
    Path file = Files.writeString(data.resolve("routes-openapi.yaml"), f.get("/api/openapi.yaml", BEARER).body());
    Set<String> documented = operations(await(OpenAPIContract.from(f.vertx, file.toString())));
    assertThat(f.service.operations()).as("routes the router serves under /api, /health and /metrics")
        .containsExactlyInAnyOrderElementsOf(documented)
        .contains("POST /api/searches", "GET /api/searches/{id}/nodes/{nodeId}",
            "GET /health", "GET /api/openapi.yaml");
  }

  @Test
  void theContractsValuesAreTheServicesOwn() throws Exception {
    JsonObject doc = new JsonObject(f.get("/api/openapi.json", BEARER).body());
    JsonObject paths = doc.getJsonObject("paths");
    JsonObject schemas = doc.getJsonObject("components").getJsonObject("schemas");
    assertThat(enumOf(query(paths, "/api/searches/{id}/export", "format"))).isEqualTo(SearchExport.names());
    assertThat(enumOf(schemas.getJsonObject("KeptGraph"))).isEqualTo(StackExports.GRAPHS);
    JsonObject graph = query(paths, "/api/jvms/{daemonId}/stacks", "graph");
    assertThat(enumOf(graph)).isEqualTo(List.copyOf(DaemonRequests.Stacks.GRAPHS.keySet()));
    assertThat(graph.getString("default")).isEqualTo(DaemonRequests.CallGraph.DEFAULT_GRAPH);
    assertThat(query(paths, "/api/jvms/{daemonId}/stacks", "max").getInteger("default"))
        .isEqualTo(DaemonRequests.Stacks.DEFAULT_MAX);
  }

  @Test
  void aBodyThatBreaksTheContractIsNamedFieldByField() throws Exception {
    String search = "/api/searches";
    assertError(post(search, "{\"daemons\": [\"vm-42\"], \"budget\": 0}"), 400,
        "'budget' must be a positive number up to 0.5, is 0: the share of its targets' CPU the search may spend");
    assertError(post(search, "{\"daemons\": [\"vm-42\"], \"budget\": 1e400}"), 400,
        "'budget' must be a positive number");
    assertError(post(search, "{\"daemons\": [\"vm-42\"], \"maxTimeSeconds\": 0.5}"), 400,
        "'maxTimeSeconds' must be a number in [1, 86400], is 0.5");
    assertError(post(search, "{\"daemons\": [\"vm-42\"], \"skip\": \"io_wait\"}"), 400,
        "'skip' must be an array, is 'io_wait'");
    assertError(post(search, "{\"daemons\": [\"vm-42\", 7]}"), 400, "'daemons[1]' must be a non-empty string, is 7");
    assertError(post(search, "{\"budget\": 0.1}"), 400, "'daemons' must be a non-empty array, is missing");
    assertError(post(search, "{\"daemons\": [\"vm-42\"], \"settings\": {\"cpu_bound.threshold\": [1]}}"), 400,
        "'settings[\"cpu_bound.threshold\"]' must be a string, a number or a boolean, is [1]");
    assertError(post(search, "{\"daemons\": [\"vm-42\"], \"" + "k".repeat(500) + "\": 1}"), 400,
        "unknown field 'kkkkk");
    assertThat(new JsonObject(post(search, "{\"daemons\": [\"vm-42\"], \"" + "k".repeat(500) + "\": 1}").body())
        .getString("error")).hasSizeLessThan(200);
    assertError(post("/api/jvms", "{\"pid\": 1.5}"), 400,
        "'pid' must be a positive whole number up to 2147483647, is 1.5");
    assertError(post("/api/jvms", "{\"pid\": 9223372036854775808}"), 400, "'pid' must be a positive whole number");
    assertError(post("/api/plots", "{\"daemonId\": \"\", \"metric\": \"cpu\"}"), 400,
        "'daemonId' must be a non-empty string, is ''");
    assertError(post("/api/metrics/check", "{\"text\": null}"), 400, "'text' must be a string, is null");
    // The body is read as the routes read it before the contract sees it.
    assertError(post(search, "[1]"), 400, "the body must be a JSON object");
  }

  @Test
  void aParameterThatBreaksTheContractIsNamed() throws Exception {
    assertError(f.get("/api/jvms/vm-1/stacks?max=0", BEARER), 400,
        "'max' must be a positive whole number up to 10000, is '0': the most frames answered");
    assertError(f.get("/api/jvms/vm-1/stacks?max=ten", BEARER), 400,
        "'max' must be a positive whole number up to 10000, is 'ten'");
    assertError(f.get("/api/jvms/vm-1/stacks?graph=heap", BEARER), 400,
        "'graph' must be cpu, wait, sync, io, jit, alloc or load, is 'heap'");
    assertError(f.get("/api/searches/hot-1/nodes/-1", BEARER), 400, "'nodeId' must be a non-negative whole number");
    // A valid value goes on to the route: no daemon vm-1 is registered, and 1e2 is the node 100.
    assertError(f.get("/api/jvms/vm-1/stacks?max=1e2", BEARER), 404, "unknown daemon 'vm-1'");
    assertError(f.get("/api/searches/hot-1/nodes/1e2", BEARER), 404, "has no node 100");
    // A string parameter is the text sent, never read as JSON.
    for (String id : new String[] {"-1", "%5B1%5D", "null", "%22x%22", "1e9"}) {
      HttpResponse<String> r = f.get("/api/searches/" + id, BEARER);
      assertThat(r.statusCode()).as(id + ": " + r.body()).isEqualTo(404);
      assertThat(new JsonObject(r.body()).getString("error")).startsWith("no search '");
    }
  }

  @Test
  void theServicesOwnCallersAreCheckedAsARequestIs() {
    Throwable refused = f.service.startSearch(new JsonObject().put("daemons", new JsonArray()))
        .toCompletionStage().toCompletableFuture().handle((ok, e) -> e).join();
    assertThat(refused).isInstanceOf(ApiException.class).hasMessage("'daemons' must be a non-empty array, is []: "
        + "the daemons (GET /api/jvms) whose JVMs the search covers");
    assertThat(((ApiException) refused).status()).isEqualTo(400);
  }

  private HttpResponse<String> post(String path, String body) throws Exception {
    return f.send("POST", path, body, "Content-Type", "application/json", BEARER[0], BEARER[1]);
  }

  private static Set<String> operations(OpenAPIContract contract) {
    return contract.operations().stream().map(ApiContractTest::name).collect(Collectors.toCollection(TreeSet::new));
  }

  private static String name(Operation o) {
    return o.getHttpMethod().name() + " " + o.getOpenAPIPath();
  }

  private static JsonObject query(JsonObject paths, String path, String name) {
    return paths.getJsonObject(path).getJsonObject("get").getJsonArray("parameters").stream()
        .map(JsonObject.class::cast).filter(p -> name.equals(p.getString("name"))).findFirst().orElseThrow()
        .getJsonObject("schema");
  }

  private static List<String> enumOf(JsonObject schema) {
    return schema.getJsonArray("enum").stream().map(String.class::cast).toList();
  }

  private static <T> T await(io.vertx.core.Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }
}
