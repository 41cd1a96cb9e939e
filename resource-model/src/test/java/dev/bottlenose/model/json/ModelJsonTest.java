package dev.bottlenose.model.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bottlenose.model.Constraint;
import dev.bottlenose.model.ConstraintMode;
import dev.bottlenose.model.Focus;
import dev.bottlenose.model.MetricFocus;
import dev.bottlenose.model.Resource;
import dev.bottlenose.model.ResourceChange;
import dev.bottlenose.model.ResourcePath;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ModelJsonTest {
  private static final ResourcePath STEP = ResourcePath.parse("/Code/com.acme/Sim/step(I)V");

  @Test
  void forms() {
    Focus focus = Focus.parse("</Threads/main, /Code/com.acme/Sim/step(I)V>");
    Resource r = new Resource(ResourcePath.parse("/Threads/main"), "thread", Map.of("state", "RUNNABLE", "id", "1"));

    assertThat(Json.write(ModelJson.toJson(new Constraint(STEP, ConstraintMode.CALLER))))
        .isEqualTo("{\"path\":\"/Code/com.acme/Sim/step(I)V\",\"mode\":\"caller\"}");
    assertThat(Json.write(ModelJson.toJson(new MetricFocus("cpu_time", focus))))
        .isEqualTo("{\"metric\":\"cpu_time\",\"focus\":[\"/Code/com.acme/Sim/step(I)V\",\"/Threads/main\"]}");
    assertThat(Json.write(ModelJson.toJson(r)))
        .isEqualTo("{\"path\":\"/Threads/main\",\"kind\":\"thread\",\"attributes\":{\"id\":\"1\",\"state\":\"RUNNABLE\"}}");
    assertThat(Json.write(ModelJson.toJson(new ResourceChange(ResourceChange.Type.REMOVED, r))))
        .startsWith("{\"change\":\"removed\",\"resource\":{\"path\":\"/Threads/main\"");
  }

  @Test
  void readsBack() {
    Resource r = new Resource(STEP, "method", Map.of("unloaded", "true"));
    ResourceChange c = new ResourceChange(ResourceChange.Type.UPDATED, r);

    assertThat(ModelJson.readResource(Json.parse(Json.write(ModelJson.toJson(r))))).isEqualTo(r);
    assertThat(ModelJson.readChange(Json.parse(Json.write(ModelJson.toJson(c))))).isEqualTo(c);
    assertThat(ModelJson.readResource(Json.parse("{\"path\":\"/VM/gc\",\"kind\":\"gc\",\"extra\":1}")))
        .isEqualTo(Resource.of(ResourcePath.parse("/VM/gc"), "gc"));
    assertThat(ModelJson.readFocus(Json.parse("[\"/Code\", \"/Threads/t\"]"))).isEqualTo(Focus.parse("</Threads/t>"));
    assertThat(ModelJson.readFocus(Json.parse("[]"))).isEqualTo(Focus.WHOLE_PROGRAM);
  }

  @Test
  void errorsNameTheField() {
    assertThatThrownBy(() -> ModelJson.readConstraint(Json.parse("{\"path\":\"/Code/a\",\"mode\":\"sideways\"}")))
        .isInstanceOf(JsonException.class)
        .hasMessage("field 'mode': unknown constraint mode 'sideways'; expected exclusive, inclusive or caller");
    assertThatThrownBy(() -> ModelJson.readConstraint(Json.parse("{\"mode\":\"caller\"}")))
        .hasMessage("field 'path': expected a string but found nothing (null or missing)");
    assertThatThrownBy(() -> ModelJson.readConstraint(Json.parse("{\"path\":\"/Nope\",\"mode\":\"caller\"}")))
        .hasMessageStartingWith("field 'path': unknown hierarchy root 'Nope'");
    assertThatThrownBy(() -> ModelJson.readMetricFocus(Json.parse("{\"metric\":\"a-b\",\"focus\":[]}")))
        .hasMessageStartingWith("field 'metric': not a metric name");
    assertThatThrownBy(() -> ModelJson.readMetricFocus(Json.parse("{\"metric\":\"a\",\"focus\":\"/Code\"}")))
        .hasMessageStartingWith("field 'focus': expected an array of resource paths but found string /Code");
    assertThatThrownBy(() -> ModelJson.readFocus(Json.parse("[\"/Code/a\", \"/Code/b\"]")))
        .hasMessage("field 'focus[1]': second path in /Code after /Code/a");
    assertThatThrownBy(() -> ModelJson.readFocus(Json.parse("[\"/Code/a\", 3]")))
        .hasMessage("field 'focus[1]': expected a string but found long 3");
    assertThatThrownBy(() -> ModelJson.readResource(Json.parse("{\"path\":\"/VM\",\"kind\":\"x\",\"attributes\":{\"n\":1}}")))
        .hasMessage("field 'attributes.n': expected a string but found long 1");
    assertThatThrownBy(() -> ModelJson.readResource(Json.parse("[]")))
        .hasMessage("expected a JSON object for the resource but found an array");
  }
}
