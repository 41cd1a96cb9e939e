package dev.bottlenose.consultant;

import dev.bottlenose.model.ConstraintMode;
import dev.bottlenose.model.Focus;
import dev.bottlenose.model.MetricFocus;
import dev.bottlenose.model.json.JsonException;
import dev.bottlenose.model.json.ModelJson;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** A metric–focus pair the consultant asks for, with how the {@code /Code} part of the focus is active. */
public record MetricRequest(String metric, Focus focus, ConstraintMode mode) {

  public MetricRequest {
    new MetricFocus(metric, focus);
    java.util.Objects.requireNonNull(mode, "mode");
  }

  public MetricFocus metricFocus() {
    return new MetricFocus(metric, focus);
  }

  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>(ModelJson.toJson(metricFocus()));
    m.put("mode", mode.word());
    return m;
  }

  public static MetricRequest fromJson(Object json) {
    MetricFocus mf = ModelJson.readMetricFocus(json);
    Object mode = ((Map<?, ?>) json).get("mode");
    for (ConstraintMode cm : ConstraintMode.values()) {
      if (cm.word().equals(mode)) {
        return new MetricRequest(mf.metric(), mf.focus(), cm);
      }
    }
    throw new JsonException("field 'mode': unknown constraint mode '" + mode + "'; expected exclusive, inclusive or caller", -1);
  }

  @Override
  public String toString() {
    return "(" + metric + (mode == ConstraintMode.INCLUSIVE ? "" : " " + mode.name().toLowerCase(Locale.ROOT)) + ", " + focus + ")";
  }
}
