package dev.bottlenose.tests.bench.mixed;

import java.util.ArrayList;
import java.util.List;

/** An allocated value: a customer name, some line items and their quantities. */
final class Order {
  final String customer;
  final List<String> items;
  final int[] quantities;

  private Order(String customer, List<String> items, int[] quantities) {
    this.customer = customer;
    this.items = items;
    this.quantities = quantities;
  }

  static Order random(long x) {
    int n = 1 + (int) ((x >>> 3) & 7);
    List<String> items = new ArrayList<>(n);
    int[] quantities = new int[n];
    for (int i = 0; i < n; i++) {
      items.add("item-" + ((x >>> (i * 4)) & 255));
      quantities[i] = 1 + (int) ((x >>> (i * 3)) & 15);
    }
    return new Order("customer-" + ((x >>> 20) & 127), items, quantities);
  }

  long total() {
    long t = 0;
    for (int i = 0; i < quantities.length; i++) {
      t += (long) quantities[i] * items.get(i).hashCode();
    }
    return t;
  }
}
