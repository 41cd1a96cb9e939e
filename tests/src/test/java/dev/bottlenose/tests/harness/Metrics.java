package dev.bottlenose.tests.harness;

import static org.awaitility.Awaitility.await;

import dev.bottlenose.bus.Addresses;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Enables metrics on a daemon over the event bus and reads their values back from its sample history. */
public final class Metrics {
  /** With the tests' 200 ms interval: 1.2 s of zeros. */
  private static final int SETTLED_SAMPLES = 6;

  private final Bus bus;
  private final String daemonId;

  public Metrics(Bus bus, String daemonId) {
    this.bus = bus;
    this.daemonId = daemonId;
  }

  /** Enables {@code metric} at {@code focus}; the reply ({@code metricId}, plan, predicted cost…). */
  public JsonObject enable(String metric, String focus) throws Exception {
    return bus.request(Addresses.metricEnable(daemonId),
        new JsonObject().put("metric", metric).put("focus", focus).put("requester", "e2e"));
  }

  public JsonObject disable(long metricId) throws Exception {
    return bus.request(Addresses.metricDisable(daemonId), new JsonObject().put("metricId", metricId));
  }

  /** Waits until the newest sample holds a value for every one of {@code metricIds}. */
  public void awaitValues(long... metricIds) {
    await("values of metrics " + java.util.Arrays.toString(metricIds)).atMost(Duration.ofSeconds(20))
        .pollInterval(Duration.ofMillis(100)).until(() -> {
          List<JsonObject> last = samples(1);
          if (last.isEmpty()) {
            return false;
          }
          for (long id : metricIds) {
            JsonObject v = value(last.get(0), id);
            if (v == null || v.getValue("value") == null) {
              return false;
            }
          }
          return true;
        });
  }

  /** Waits for {@code n} more samples (each metric then holds the events JFR delivers late). */
  public void awaitSamples(int n) {
    long newest = samples(1).isEmpty() ? 0 : samples(1).get(0).getLong("atMillis");
    await("" + n + " more samples").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
        .until(() -> samples(n).stream().filter(s -> s.getLong("atMillis") > newest).count() >= n);
  }

  /**
   * Waits until every one of {@code metricIds} has had a non-zero value and then held zero for more than a
   * second, and, for a metric of JFR events, its data is complete through the start of those zeros: the run
   * is over and the events JFR delivers late (it flushes about every second; a fresh stream, or a loaded
   * machine, takes longer) have all been counted, not merely not yet read.
   */
  public void awaitSettled(long... metricIds) {
    await("metrics " + java.util.Arrays.toString(metricIds) + " measured and back to zero")
        .atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
          List<JsonObject> all = samples(600);
          if (all.size() < SETTLED_SAMPLES) {
            return false;
          }
          List<JsonObject> last = all.subList(all.size() - SETTLED_SAMPLES, all.size());
          long zerosFrom = last.get(0).getLong("atMillis");
          for (long id : metricIds) {
            if (all.stream().noneMatch(s -> valueOf(s, id) > 0) || last.stream().anyMatch(s -> valueOf(s, id) != 0)) {
              return false;
            }
            JsonObject newest = value(last.get(last.size() - 1), id);
            long through = newest == null ? -1 : newest.getLong("dataThroughMillis", -1L);
            if (through >= 0 && through < zerosFrom) {
              return false;
            }
          }
          return true;
        });
  }

  private static double valueOf(JsonObject sample, long metricId) {
    JsonObject v = value(sample, metricId);
    return v == null || v.getValue("value") == null ? Double.NaN : v.getDouble("value");
  }

  /** The last {@code n} samples, oldest first. */
  public List<JsonObject> samples(int n) {
    try {
      JsonArray a = bus.request(Addresses.valuesHistory(daemonId), new JsonObject().put("last", n)).getJsonArray("samples");
      List<JsonObject> out = new ArrayList<>();
      a.forEach(o -> out.add((JsonObject) o));
      return out;
    } catch (Exception e) {
      throw new AssertionError("reading the sample history failed", e);
    }
  }

  /** Metric {@code metricId}'s entry in a sample, or null. */
  public static JsonObject value(JsonObject sample, long metricId) {
    for (Object o : sample.getJsonArray("metrics", new JsonArray())) {
      JsonObject m = (JsonObject) o;
      if (m.getLong("metricId") == metricId) {
        return m;
      }
    }
    return null;
  }

  /**
   * Per sample (by time), each metric's value; samples where any of them has no value are left out.
   * Keys: the metric ids.
   */
  public List<Map<Long, Double>> aligned(long... metricIds) {
    List<Map<Long, Double>> rows = new ArrayList<>();
    for (JsonObject s : samples(600)) {
      Map<Long, Double> row = new HashMap<>();
      for (long id : metricIds) {
        JsonObject v = value(s, id);
        if (v != null && v.getValue("value") != null) {
          row.put(id, v.getDouble("value"));
        }
      }
      if (row.size() == metricIds.length) {
        row.put(-1L, s.getLong("intervalNanos") / 1e9);
        rows.add(row);
      }
    }
    return rows;
  }

  /** The metric's value integrated over every sample that has it: Σ value × interval seconds. */
  public double integral(long metricId) {
    double sum = 0;
    for (Map<Long, Double> row : aligned(metricId)) {
      sum += row.get(metricId) * row.get(-1L);
    }
    return sum;
  }
}
