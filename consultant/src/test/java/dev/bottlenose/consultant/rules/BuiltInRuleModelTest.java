package dev.bottlenose.consultant.rules;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.kie.api.KieBase;

class BuiltInRuleModelTest {
  @Test
  void theBuildMadeTheModelOfEveryBuiltInRule() {
    KieBase model = BuiltInRuleModel.load(RuleBook.class.getClassLoader());
    assertThat(model).as("the build's executable model (" + BuiltInRuleModel.LIST + ")").isNotNull();
    RuleBook compiled = RuleBook.of(RuleBook.BUILT_IN.toArray(String[]::new));
    assertThat(RuleBook.load(null).ruleNames()).hasSizeGreaterThan(10).isEqualTo(compiled.ruleNames());
  }

  @Test
  void withoutAListThereIsNoModel() {
    ClassLoader empty = new ClassLoader(null) {};
    assertThat(BuiltInRuleModel.load(empty)).isNull();
  }
}
