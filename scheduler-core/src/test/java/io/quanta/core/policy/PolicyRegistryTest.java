package io.quanta.core.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quanta.core.config.InvalidPolicyConfigException;
import io.quanta.core.config.PolicyConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PolicyRegistryTest {

    @Test
    void shouldNameTheRegisteredPoliciesWhenThePolicyIsUnknown() {
        assertThatThrownBy(() -> PolicyRegistry.builtIn().create(Map.of("policy", "drf")))
                .isInstanceOf(InvalidPolicyConfigException.class)
                .hasMessageContaining("policy: unknown policy 'drf'; allowed: fifo, gandiva, quanta, srtf-oracle, "
                        + "tiresias-gittins, tiresias-las");
    }

    @Test
    void shouldCreateEveryBuiltInPolicyByName() {
        for (String name : PolicyRegistry.builtIn().names()) {
            SchedulingPolicy p = PolicyRegistry.builtIn().create(PolicyConfig.defaults(name));
            assertThat(p.name()).isEqualTo(name);
            assertThat(p.config().policyName()).isEqualTo(name);
        }
        assertThat(PolicyRegistry.builtIn().names()).containsExactly("fifo", "gandiva", "quanta", "srtf-oracle",
                "tiresias-gittins", "tiresias-las");
    }
}
