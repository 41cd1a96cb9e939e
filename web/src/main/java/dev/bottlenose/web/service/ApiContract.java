package dev.bottlenose.web.service;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.json.schema.OutputUnit;
import io.vertx.json.schema.common.dsl.SchemaType;
import io.vertx.openapi.contract.Location;
import io.vertx.openapi.contract.OpenAPIContract;
import io.vertx.openapi.contract.Operation;
import io.vertx.openapi.contract.Parameter;
import io.vertx.openapi.validation.RequestParameter;
import io.vertx.openapi.validation.RequestValidator;
import io.vertx.openapi.validation.SchemaValidationException;
import io.vertx.openapi.validation.ValidatableRequest;
import io.vertx.openapi.validation.ValidatedRequest;
import io.vertx.openapi.validation.ValidatorException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The API's contract, {@code openapi.yaml} on the class path: every operation of {@code /api/}, {@code /health} and
 * {@code /metrics} with its parameters, request body and answers. Requests are checked against it by Vert.x's own
 * validator ({@code vertx-openapi}); one that breaks it is answered 400 {@code {"error": "'<field>' must be <what
 * the contract allows>, is <what was sent>: <the field's description>"}}, so the contract is the one place for the
 * API's shapes, types and ranges. What it cannot say (a daemon that must exist, a setting the consultant must
 * know) the routes check themselves.
 */
final class ApiContract {
  /** Where the contract is on the class path. */
  private static final String RESOURCE = "openapi.yaml";
  /** The routing-context key of the checked request ({@link #param}). */
  private static final String CHECKED = "bottlenose.checked";
  private static final Pattern ROUTE_PARAM = Pattern.compile(":(\\w+)");
  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  /** Keywords whose failure is told by the failures of their subschemas, which follow it. */
  private static final Set<String> SUBSCHEMA_KEYWORDS = Set.of("properties", "patternProperties", "items",
      "prefixItems", "contains", "$ref", "$dynamicRef", "allOf", "anyOf", "oneOf", "not", "if", "then", "else",
      "dependentSchemas", "unevaluatedProperties", "unevaluatedItems", "additionalItems");
  private static final int SHOWN = 60;

  private final RequestValidator validator;
  private final Buffer yaml;
  private final Buffer json;
  /** The operations by method and path template ({@code POST /api/searches/{id}/stop}). */
  private final Map<String, Operation> operations = new HashMap<>();

  private ApiContract(Vertx vertx, OpenAPIContract contract, Buffer yaml, JsonObject document) {
    this.validator = RequestValidator.create(vertx, contract);
    this.yaml = yaml;
    this.json = Buffer.buffer(document.encode());
    for (Operation o : contract.operations()) {
      operations.put(o.getHttpMethod().name() + " " + o.getOpenAPIPath(), o);
    }
  }

  /** Reads {@value #RESOURCE} from the class path and resolves it; fails when it is not a valid contract. */
  static Future<ApiContract> load(Vertx vertx) {
    return vertx.executeBlocking(ApiContract::read, false).compose(yaml -> {
      JsonObject document = parse(yaml.toString(StandardCharsets.UTF_8));
      return OpenAPIContract.from(vertx, document.copy()).map(c -> new ApiContract(vertx, c, yaml, document));
    });
  }

  private static Buffer read() {
    try (InputStream in = ApiContract.class.getClassLoader().getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is not on the class path");
      }
      return Buffer.buffer(in.readAllBytes());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
  }

  /** A YAML document as JSON, keys as strings (a status code {@code 200:} is a number to YAML). */
  @SuppressWarnings("unchecked")
  private static JsonObject parse(String yaml) {
    Object doc = new Yaml(new SafeConstructor(new LoaderOptions())).load(yaml);
    if (!(doc instanceof Map<?, ?>)) {
      throw new IllegalArgumentException("the contract is not a YAML mapping");
    }
    return new JsonObject((Map<String, Object>) jsonValue(doc));
  }

  private static Object jsonValue(Object value) {
    if (value instanceof Map<?, ?> m) {
      Map<String, Object> out = new LinkedHashMap<>();
      m.forEach((k, v) -> out.put(String.valueOf(k), jsonValue(v)));
      return out;
    }
    if (value instanceof List<?> l) {
      return l.stream().map(ApiContract::jsonValue).toList();
    }
    return value;
  }

  /** The contract as written, YAML. */
  Buffer yaml() {
    return yaml;
  }

  /** The contract as written, JSON. */
  Buffer json() {
    return json;
  }

  /**
   * A route handler that checks the request against the contract's operation of its route (the route's method and
   * path, {@code :param} as {@code {param}}), then goes on; a request that breaks it is 400 naming the field. A
   * request body is read as the routes read it ({@link Http#body}), so one that is no JSON object is told so first.
   */
  Handler<RoutingContext> checks() {
    return this::check;
  }

  /** A route as the contract names its operation: {@code GET /api/searches/{id}} for the route /api/searches/:id. */
  static String operation(HttpMethod method, String routePath) {
    return method.name() + " " + ROUTE_PARAM.matcher(routePath).replaceAll("{$1}");
  }

  private void check(RoutingContext ctx) {
    String route = operation(ctx.request().method(), ctx.currentRoute().getPath());
    Operation operation = operations.get(route);
    if (operation == null) {
      Http.fail(ctx, new IllegalStateException("the route " + route + " is not in " + RESOURCE));
      return;
    }
    if (operation.getParameters().isEmpty() && operation.getRequestBody() == null) {
      ctx.next();
      return;
    }
    JsonObject body;
    try {
      body = operation.getRequestBody() == null ? null : Http.body(ctx);
    } catch (ApiException e) {
      Http.fail(ctx, e);
      return;
    }
    validate(operation, ctx.pathParams(), ctx.queryParams(), body, body == null ? null : ctx.body().buffer())
        .onSuccess(checked -> {
          ctx.put(CHECKED, checked);
          ctx.next();
        }).onFailure(e -> Http.fail(ctx, e));
  }

  /**
   * Checks {@code body} as the request body of {@code method path} (a path template, {@code /api/searches}), for
   * callers that start what a request would without one; fails with the 400 a request would get.
   */
  Future<Void> checkBody(HttpMethod method, String path, JsonObject body) {
    Operation operation = operations.get(method.name() + " " + path);
    if (operation == null) {
      return Future.failedFuture(new IllegalArgumentException(method + " " + path + " is not in " + RESOURCE));
    }
    return validate(operation, Map.of(), MultiMap.caseInsensitiveMultiMap(), body, Buffer.buffer(body.encode()))
        .mapEmpty();
  }

  /**
   * The value of path or query parameter {@code name} as the contract types it (a number for an integer), or null
   * when it was not sent; for a route that {@link #checks()}.
   */
  static Object param(RoutingContext ctx, String name) {
    ValidatedRequest checked = ctx.get(CHECKED);
    RequestParameter p = checked == null ? null : checked.getPathParameters().get(name);
    if (p == null || p.isNull()) {
      p = checked == null ? null : checked.getQuery().get(name);
    }
    return p == null ? null : p.get();
  }

  private Future<ValidatedRequest> validate(Operation operation, Map<String, String> path, MultiMap query,
      JsonObject body, Buffer bytes) {
    Request request = new Request();
    for (Parameter p : operation.getParameters()) {
      String value = switch (p.getIn()) {
        case PATH -> path.get(p.getName());
        case QUERY -> query.get(p.getName());
        default -> null;
      };
      if (value != null) {
        request.add(p, value);
      }
    }
    if (bytes != null) {
      request.body(bytes);
    }
    return validator.validate(request, operation.getOperationId()).recover(e -> Future.failedFuture(
        e instanceof ValidatorException v ? refusal(operation, request, body, v) : e));
  }

  /** The 400 for a request that broke the contract, naming the part the validator read last (the one it refused). */
  private static ApiException refusal(Operation operation, Request request, JsonObject body, ValidatorException e) {
    Part part = request.last;
    OutputUnit unit = e instanceof SchemaValidationException s ? s.getOutputUnit() : null;
    if (part == null || part.parameter == null && (body == null || unit == null)) {
      return ApiException.badRequest("the request does not match the API's contract: " + e.getMessage());
    }
    if (part.parameter != null) {
      JsonObject model = part.parameter.getOpenAPIModel();
      JsonObject schema = model.getJsonObject("schema", new JsonObject()).copy();
      if (!schema.containsKey("description") && model.containsKey("description")) {
        schema.put("description", model.getString("description"));
      }
      return ApiException.badRequest(mustBe(part.parameter.getName(), schema, "'" + shown(part.raw) + "'"));
    }
    JsonObject schema = operation.getRequestBody().getOpenAPIModel().getJsonObject("content")
        .getJsonObject("application/json").getJsonObject("schema");
    return ApiException.badRequest(bodyProblem(schema, body, unit, e));
  }

  /** What is wrong with a body, from the first failure that is not told by the failures of its subschemas. */
  private static String bodyProblem(JsonObject root, JsonObject body, OutputUnit unit, ValidatorException e) {
    List<OutputUnit> errors = unit.getErrors() == null ? List.of(unit) : unit.getErrors();
    for (OutputUnit error : errors) {
      String keyword = lastSegment(error.getKeywordLocation());
      List<String> at = pointer(error.getInstanceLocation());
      JsonObject schema = schemaAt(root, at);
      if (keyword.equals("additionalProperties")) {
        JsonObject parent = schemaAt(root, at.subList(0, Math.max(0, at.size() - 1)));
        if (parent == null || !Boolean.FALSE.equals(parent.getValue("additionalProperties"))) {
          continue;
        }
        List<String> known = parent.getJsonObject("properties", new JsonObject()).fieldNames().stream()
            .filter(n -> !n.startsWith("__")).sorted().toList();
        return "unknown field '" + shown(field(at)) + "'; expected " + String.join(", ", known);
      }
      if (keyword.equals("required") && schema != null) {
        Object here = valueAt(body, at);
        for (Object key : schema.getJsonArray("required", new JsonArray())) {
          if (!(here instanceof JsonObject o) || !o.containsKey((String) key)) {
            List<String> missing = new ArrayList<>(at);
            missing.add((String) key);
            return mustBe(field(missing), schemaAt(root, missing), "missing");
          }
        }
        continue;
      }
      if (!SUBSCHEMA_KEYWORDS.contains(keyword) && schema != null) {
        return mustBe(field(at), schema, shownJson(valueAt(body, at)));
      }
    }
    return "the request body does not match the API's contract: " + e.getMessage();
  }

  /** {@code '<field>' must be <what schema allows>, is <shown>: <its description>}. */
  private static String mustBe(String field, JsonObject schema, String shown) {
    String description = schema == null ? null : schema.getString("description");
    return "'" + shown(field) + "' must be " + allowed(schema) + ", is " + shown
        + (description == null || description.isBlank() ? "" : ": " + description.strip());
  }

  /** What a schema allows, in words: {@code a positive number up to 0.5}, {@code cpu, sync or io}. */
  private static String allowed(JsonObject schema) {
    if (schema == null) {
      return "what the contract allows";
    }
    JsonArray values = schema.getJsonArray("enum");
    if (values != null) {
      return or(values.stream().map(v -> v instanceof String s ? s : Json.encode(v)).toList());
    }
    Object type = schema.getValue("type");
    List<String> types = type instanceof JsonArray a ? a.stream().map(String::valueOf).toList()
        : type == null ? List.of() : List.of(String.valueOf(type));
    if (types.size() != 1) {
      return types.isEmpty() ? "what the contract allows" : or(types.stream().map(ApiContract::article).toList());
    }
    return switch (types.get(0)) {
      case "string" -> (schema.getInteger("minLength", 0) > 0 ? "a non-empty string" : "a string")
          + (schema.containsKey("maxLength") ? " of at most " + schema.getValue("maxLength") + " characters" : "")
          + (schema.containsKey("pattern") ? " matching " + schema.getString("pattern") : "");
      case "integer" -> number(schema, "whole number");
      case "number" -> number(schema, "number");
      case "array" -> schema.getInteger("minItems", 0) > 0 ? "a non-empty array" : "an array";
      case "boolean" -> "true or false";
      default -> article(types.get(0));
    };
  }

  private static String number(JsonObject schema, String kind) {
    Number min = (Number) schema.getValue("minimum");
    Number above = (Number) schema.getValue("exclusiveMinimum");
    Number max = (Number) schema.getValue("maximum");
    Number below = (Number) schema.getValue("exclusiveMaximum");
    String upper = max != null ? " up to " + text(max) : below != null ? " below " + text(below) : "";
    boolean whole = kind.equals("whole number");
    if (above != null && compare(above, 0) == 0 || min != null && whole && compare(min, 1) == 0) {
      return "a positive " + kind + upper;
    }
    if (min != null && compare(min, 0) == 0) {
      return "a non-negative " + kind + upper;
    }
    if (min == null && above == null) {
      return "a " + kind + upper;
    }
    String low = min != null ? "[" + text(min) : "(" + text(above);
    if (max == null && below == null) {
      return "a " + kind + (min != null ? " of at least " + text(min) : " above " + text(above));
    }
    return "a " + kind + " in " + low + ", " + (max != null ? text(max) + "]" : text(below) + ")");
  }

  private static int compare(Number a, int b) {
    return new BigDecimal(a.toString()).compareTo(BigDecimal.valueOf(b));
  }

  private static String text(Number n) {
    return new BigDecimal(n.toString()).stripTrailingZeros().toPlainString();
  }

  private static String article(String type) {
    return switch (type) {
      case "integer" -> "a whole number";
      case "array", "object" -> "an " + type;
      case "null" -> "null";
      default -> "a " + type;
    };
  }

  private static String or(List<String> words) {
    return words.size() == 1 ? words.get(0)
        : String.join(", ", words.subList(0, words.size() - 1)) + " or " + words.get(words.size() - 1);
  }

  /** The subschema of a body's schema at an instance location, or null. */
  private static JsonObject schemaAt(JsonObject root, List<String> at) {
    JsonObject schema = root;
    for (String segment : at) {
      if (schema == null) {
        return null;
      }
      JsonObject properties = schema.getJsonObject("properties");
      Object next = properties != null && properties.containsKey(segment) ? properties.getValue(segment)
          : "array".equals(schema.getValue("type")) ? schema.getValue("items")
          : schema.getValue("additionalProperties");
      schema = next instanceof JsonObject o ? o : null;
    }
    return schema;
  }

  private static Object valueAt(Object value, List<String> at) {
    for (String segment : at) {
      if (value instanceof JsonObject o) {
        value = o.getValue(segment);
      } else if (value instanceof JsonArray a && segment.chars().allMatch(Character::isDigit)
          && Integer.parseInt(segment) < a.size()) {
        value = a.getValue(Integer.parseInt(segment));
      } else {
        return null;
      }
    }
    return value;
  }

  /** A JSON pointer's segments ({@code /settings/a~1b} is settings, a/b); {@code #} and the empty pointer are none. */
  private static List<String> pointer(String location) {
    String p = location == null ? "" : location.startsWith("#") ? location.substring(1) : location;
    List<String> segments = new ArrayList<>();
    if (!p.isEmpty()) {
      for (String s : p.substring(1).split("/", -1)) {
        segments.add(s.replace("~1", "/").replace("~0", "~"));
      }
    }
    return segments;
  }

  private static String lastSegment(String location) {
    return location == null ? "" : location.substring(location.lastIndexOf('/') + 1);
  }

  /** A field as a client wrote it: {@code daemons[0]}, {@code settings["cpu_bound.threshold"]}. */
  private static String field(List<String> at) {
    StringBuilder b = new StringBuilder();
    for (String segment : at) {
      if (b.isEmpty()) {
        b.append(segment);
      } else if (segment.chars().allMatch(Character::isDigit) && !segment.isEmpty()) {
        b.append('[').append(segment).append(']');
      } else if (IDENTIFIER.matcher(segment).matches()) {
        b.append('.').append(segment);
      } else {
        b.append('[').append(Json.encode(segment)).append(']');
      }
    }
    return b.isEmpty() ? "body" : b.toString();
  }

  private static String shownJson(Object value) {
    return value instanceof String s ? "'" + shown(s) + "'" : shown(Json.encode(value));
  }

  private static String shown(String text) {
    return text.length() <= SHOWN ? text : text.substring(0, SHOWN) + "… (" + text.length() + " characters)";
  }

  /** A request as the validator reads it; remembers the part it read last, which is the one refused when it fails. */
  private static final class Request implements ValidatableRequest {
    private final Map<String, RequestParameter> path = new HashMap<>();
    private final Map<String, RequestParameter> query = new HashMap<>();
    private RequestParameter body;
    private volatile Part last;

    /**
     * A string parameter is given JSON-quoted: the validator reads a parameter value as JSON first, so {@code -1}
     * or {@code [1]} would be a number or an array instead of the text sent.
     */
    void add(Parameter p, String raw) {
      boolean string = p.getSchemaType() == SchemaType.STRING;
      (p.getIn() == Location.PATH ? path : query).put(p.getName(), part(p, string ? Json.encode(raw) : raw, raw));
    }

    void body(Buffer bytes) {
      body = part(null, bytes, null);
    }

    private RequestParameter part(Parameter p, Object value, String raw) {
      Part part = new Part(p, raw);
      return () -> {
        last = part;
        return value;
      };
    }

    @Override
    public Map<String, RequestParameter> getCookies() {
      return Map.of();
    }

    @Override
    public Map<String, RequestParameter> getHeaders() {
      return Map.of();
    }

    @Override
    public Map<String, RequestParameter> getPathParameters() {
      return path;
    }

    @Override
    public Map<String, RequestParameter> getQuery() {
      return query;
    }

    @Override
    public RequestParameter getBody() {
      return body;
    }

    @Override
    public String getContentType() {
      return "application/json";
    }
  }

  /** A part of a request: a parameter with its value as sent, or the body (no parameter). */
  private record Part(Parameter parameter, String raw) {}
}
