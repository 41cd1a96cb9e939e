package dev.bottlenose.tests.bench.mixed;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/** Orders by customer, shared by every worker behind one monitor; old orders are dropped. */
final class OrderBook {
  private static final int KEEP = 4_096;

  private final Map<String, Long> totals = new HashMap<>();
  private final ArrayDeque<Order> recent = new ArrayDeque<>();

  synchronized long add(Order order) {
    recent.addLast(order);
    if (recent.size() > KEEP) {
      Order old = recent.removeFirst();
      totals.merge(old.customer, -old.total(), Long::sum);
    }
    return totals.merge(order.customer, order.total(), Long::sum);
  }

  synchronized long totalOf(String customer) {
    return totals.getOrDefault(customer, 0L);
  }
}
