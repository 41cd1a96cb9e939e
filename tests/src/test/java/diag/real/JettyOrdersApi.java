package diag.real;

import com.fasterxml.jackson.databind.ObjectMapper;
import diag.Run;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * A real program nobody wrote for the benchmark: the Jetty 12 HTTP server (jetty-server 12.1), started in-process
 * on a loopback port, serving a JSON API rendered with Jackson (jackson-databind 2.22): {@code GET
 * /api/orders?page=N} answers a page of 200 orders, each with one to four line items (about 72 KB).
 * Three client threads of the JDK's {@code java.net.http.HttpClient} in the same JVM call it in a closed loop over
 * keep-alive connections, as a load test would. The driver keeps 20,000 orders in memory (the database); Jetty
 * parses the requests and writes the responses, Jackson renders the JSON. Known answer, as JFR's execution samples
 * of the same run name it (30 s, profile settings, 1,223 samples; 1.9 cores busy on an otherwise idle 2-core
 * machine): CPU-bound in Jackson's code, {@code com.fasterxml.jackson}, on 77% of the samples (55% with Jackson's
 * own frame on top); Jetty, which calls the handler, is on 86%, but only 10% in Jetty without Jackson; the
 * clients' HttpClient ({@code jdk.internal.net.http}) is on 11%. Either package counts as the answer.
 */
public final class JettyOrdersApi {
  private static final String[] PRODUCTS = ("espresso beans;green tea;oat milk;rye bread;sourdough starter;"
      + "olive oil;sea salt;black pepper;basmati rice;red lentils;chickpeas;tomato passata;dark chocolate;"
      + "rolled oats;maple syrup;almond butter;goat cheese;smoked salmon;free-range eggs;sparkling water").split(";");
  private static final String[] STATUSES = {"placed", "paid", "packed", "shipped", "delivered", "returned"};
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int STORE_SIZE = 20_000;
  private static final int PAGE_SIZE = 200;
  private static final int PAGES = STORE_SIZE / PAGE_SIZE;
  private static final List<Order> STORE = store();

  /** One line of an order. */
  public record Item(String sku, String product, int quantity, long unitPriceCents) {}

  /** One order, as the API renders it. */
  public record Order(long id, int customer, String status, String placedAt, String currency, List<Item> items,
      long totalCents, boolean giftWrapped, String note) {}

  /** A page of the orders. */
  public record Page(int page, int size, int total, boolean more, List<Order> orders) {}

  private JettyOrdersApi() {}

  public static void main(String[] args) throws Exception {
    // Jetty logs through SLF4J, which has no provider on this class path and would warn before "ready" (the
    // benchmark reads the first line): name SLF4J's own no-operation provider and keep its notes quiet.
    System.setProperty("slf4j.provider", "org.slf4j.helpers.NOP_FallbackServiceProvider");
    System.setProperty("slf4j.internal.verbosity", "WARN");
    Server server = new Server(new QueuedThreadPool(16, 4));
    ServerConnector connector = new ServerConnector(server, 1, 1);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    server.setHandler(new OrdersHandler());
    server.setStopAtShutdown(true);
    server.start();
    URI base = URI.create("http://127.0.0.1:" + connector.getLocalPort());
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5)).build();
    List<Run.Worker> clients = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      int n = i;
      clients.add(new Run.Worker("client-" + i, () -> load(http, base, n)));
    }
    Run.workers(clients);
  }

  /** The API: a page of orders as JSON, or 404. */
  private static final class OrdersHandler extends Handler.Abstract.NonBlocking {
    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
      String query = request.getHttpURI().getQuery();
      int page = query != null && query.startsWith("page=") ? Integer.parseInt(query.substring(5)) : 0;
      if (!Request.getPathInContext(request).equals("/api/orders") || page < 0 || page >= PAGES) {
        Response.writeError(request, response, callback, HttpStatus.NOT_FOUND_404);
        return true;
      }
      byte[] body = JSON.writeValueAsBytes(page(page));
      response.setStatus(HttpStatus.OK_200);
      response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
      response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
      response.write(true, ByteBuffer.wrap(body), callback);
      return true;
    }
  }

  /** The store: 20,000 orders made once, as a database would hold them. */
  private static List<Order> store() {
    long seed = 1_000_003L;
    long epoch = 1_760_000_000L;
    List<Order> orders = new ArrayList<>(STORE_SIZE);
    for (int i = 0; i < STORE_SIZE; i++) {
      seed = seed * 6364136223846793005L + 1442695040888963407L;
      int lines = 1 + (int) ((seed >>> 60) % 4);
      List<Item> items = new ArrayList<>(lines);
      long total = 0;
      for (int l = 0; l < lines; l++) {
        seed = seed * 6364136223846793005L + 1442695040888963407L;
        int product = (int) ((seed >>> 33) % PRODUCTS.length);
        int quantity = 1 + (int) ((seed >>> 20) % 6);
        long price = 99 + (seed >>> 40) % 4_900;
        items.add(new Item("SKU-" + (10_000 + product * 37), PRODUCTS[product], quantity, price));
        total += quantity * price;
      }
      long id = i + 1;
      orders.add(new Order(id, (int) ((seed >>> 33) % 10_000), STATUSES[(int) ((seed >>> 50) % STATUSES.length)],
          Instant.ofEpochSecond(epoch - id * 607).toString(), "EUR", List.copyOf(items), total, (seed & 7) == 0,
          (seed & 3) == 0 ? "leave at the door" : null));
    }
    return List.copyOf(orders);
  }

  /** One page of the orders: {@value #PAGE_SIZE} orders of the store. */
  private static Page page(int page) {
    int from = page * PAGE_SIZE;
    return new Page(page, PAGE_SIZE, STORE_SIZE, page < PAGES - 1, STORE.subList(from, from + PAGE_SIZE));
  }

  /** One client: GET a page of the orders, read the whole response, again. */
  private static void load(HttpClient http, URI base, int client) throws Exception {
    long seed = 31 + client;
    long bytes = 0;
    while (Run.running()) {
      seed = seed * 6364136223846793005L + 1442695040888963407L;
      int page = (int) ((seed >>> 33) % PAGES);
      HttpRequest get = HttpRequest.newBuilder(base.resolve("/api/orders?page=" + page))
          .header("Accept", "application/json").timeout(Duration.ofSeconds(10)).GET().build();
      HttpResponse<byte[]> r = http.send(get, HttpResponse.BodyHandlers.ofByteArray());
      if (r.statusCode() != 200) {
        throw new IllegalStateException("HTTP " + r.statusCode() + " from " + get.uri());
      }
      bytes += r.body().length;
    }
    if (bytes == 42) {
      System.out.println(bytes);
    }
  }
}
