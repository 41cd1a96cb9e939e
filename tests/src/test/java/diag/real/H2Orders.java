package diag.real;

import diag.Run;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * A real program nobody wrote for the benchmark: the H2 database (com.h2database:h2), embedded and in memory,
 * serving an order-entry load from two client threads, each on its own connection: insert an order, read the
 * customer's recent orders with an index range scan, and now and then a grouped report over the whole table.
 * Known answer, as JFR's execution samples of the same run name it: CPU-bound in H2's code, {@code org.h2}.
 */
public final class H2Orders {
  private static final String URL = "jdbc:h2:mem:orders;DB_CLOSE_DELAY=-1";

  private H2Orders() {}

  public static void main(String[] args) throws Exception {
    try (Connection c = DriverManager.getConnection(URL); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE orders(id BIGINT AUTO_INCREMENT PRIMARY KEY, customer INT, sku VARCHAR(32), "
          + "quantity INT, price DECIMAL(10,2))");
      s.execute("CREATE INDEX orders_customer ON orders(customer)");
    }
    List<Run.Worker> clients = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      int n = i;
      clients.add(new Run.Worker("client-" + i, () -> serve(n)));
    }
    Run.workers(clients);
  }

  private static void serve(int client) throws Exception {
    try (Connection c = DriverManager.getConnection(URL);
        PreparedStatement insert = c.prepareStatement("INSERT INTO orders(customer, sku, quantity, price) VALUES (?, ?, ?, ?)");
        PreparedStatement recent = c.prepareStatement("SELECT sku, quantity * price FROM orders WHERE customer = ? "
            + "ORDER BY id DESC LIMIT 20");
        PreparedStatement report = c.prepareStatement("SELECT customer % 50, SUM(quantity * price), COUNT(*) FROM orders "
            + "WHERE customer BETWEEN ? AND ? GROUP BY customer % 50");
        PreparedStatement trim = c.prepareStatement("DELETE FROM orders WHERE id < ?")) {
      long seed = 17 + client;
      long ops = 0;
      double sink = 0;
      while (Run.running()) {
        seed = seed * 6364136223846793005L + 1442695040888963407L;
        int customer = (int) ((seed >>> 33) % 5_000);
        insert.setInt(1, customer);
        insert.setString(2, "SKU-" + (seed >>> 50));
        insert.setInt(3, 1 + (int) ((seed >>> 20) % 9));
        insert.setBigDecimal(4, java.math.BigDecimal.valueOf((seed >>> 40) % 10_000, 2));
        insert.executeUpdate();
        recent.setInt(1, customer);
        try (ResultSet r = recent.executeQuery()) {
          while (r.next()) {
            sink += r.getDouble(2);
          }
        }
        if (++ops % 200 == 0) {
          report.setInt(1, customer);
          report.setInt(2, customer + 500);
          try (ResultSet r = report.executeQuery()) {
            while (r.next()) {
              sink += r.getDouble(2);
            }
          }
        }
        if (ops % 50_000 == 0) {
          try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT MAX(id) FROM orders")) {
            r.next();
            trim.setLong(1, r.getLong(1) - 200_000);
            trim.executeUpdate();
          }
        }
      }
      if (sink == 42) {
        System.out.println(sink);
      }
    }
  }
}
