package io.quanta.topics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JobIdsTest {

    @Test
    void shouldAcceptIdsOfTheRuleOnly() {
        assertThat(JobIds.problem("train-resnet_50.v2")).isEmpty();
        assertThat(JobIds.problem("a".repeat(128))).isEmpty();
        assertThat(JobIds.problem("a".repeat(129))).isPresent();
        assertThat(JobIds.problem("-leading-dash")).isPresent();
        assertThat(JobIds.problem("a/b c")).hasValue("job id 'a/b c' is not valid: use " + JobIds.RULE);
        assertThat(JobIds.problem(null)).isPresent();
    }

    @Test
    void shouldQuoteAHostileIdShortAndOnOneLine() {
        String reason = JobIds.problem("x\n<script>" + "y".repeat(1_000_000)).orElseThrow();

        assertThat(reason).doesNotContain("\n").contains("x\\u000a<script>yyy").contains("(1000010 chars)")
                .hasSizeLessThan(300);
    }
}
