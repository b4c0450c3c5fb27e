package io.quanta.tests;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module boundaries of docs/architecture.md, checked on the main bytecode of every module (this module depends on
 * all of them through cli): a change that crosses one fails the build.
 */
class ArchitectureTest {

    private static JavaClasses main;

    @BeforeAll
    static void importMainClasses() {
        main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.quanta");
    }

    private static final ArchRule CORE_IS_PURE = noClasses().that().resideInAPackage("io.quanta.core..")
            .should().dependOnClassesThat().resideInAnyPackage("org.apache.kafka..", "org.apache.avro..",
                    "io.quanta.schemas..", "io.quanta.topics..", "io.quanta.streams..", "io.quanta.node..",
                    "io.quanta.sim..", "io.quanta.audit..", "io.quanta.cli..")
            .because("scheduler-core is pure Java: the same decisions whatever carries the records");

    private static final ArchRule CORE_READS_NO_CLOCK = noClasses().that().resideInAPackage("io.quanta.core..")
            .should().callMethod(System.class, "currentTimeMillis")
            .orShould().callMethod(System.class, "nanoTime")
            .orShould().callMethod(Instant.class, "now")
            .orShould().callMethod(LocalDateTime.class, "now")
            .orShould().callMethod(Clock.class, "systemUTC")
            .orShould().callMethod(Clock.class, "systemDefaultZone")
            .because("time comes from records: same input log, same decisions");

    @Test
    void schedulerCoreShouldKnowNothingOfKafkaAvroTopicsStreamsOrNodes() {
        CORE_IS_PURE.check(main);
    }

    @Test
    void schedulerCoreShouldReadNoClock() {
        CORE_READS_NO_CLOCK.check(main);
    }

    /** The rules are not vacuous: a class that breaks them (a test fixture, outside the product) is caught. */
    @Test
    void shouldCatchACoreClassThatReadsTheClockOrUsesKafka() {
        JavaClasses broken = new ClassFileImporter().importClasses(io.quanta.core.archfixture.BrokenCoreClass.class);

        org.assertj.core.api.Assertions.assertThat(CORE_READS_NO_CLOCK.evaluate(broken).hasViolation()).isTrue();
        org.assertj.core.api.Assertions.assertThat(CORE_IS_PURE.evaluate(broken).hasViolation()).isTrue();
    }

    @Test
    void streamsAppShouldNotDependOnTheConnectorSimulatorAuditOrCli() {
        noClasses().that().resideInAPackage("io.quanta.streams..")
                .should().dependOnClassesThat().resideInAnyPackage("io.quanta.node..", "io.quanta.sim..",
                        "io.quanta.audit..", "io.quanta.cli..", "io.quanta.chaos..")
                .check(main);
    }

    @Test
    void nodeConnectorShouldNotDependOnTheSchedulerCoreOrTheScheduler() {
        noClasses().that().resideInAPackage("io.quanta.node..")
                .should().dependOnClassesThat().resideInAnyPackage("io.quanta.core..", "io.quanta.streams..",
                        "io.quanta.sim..", "io.quanta.audit..", "io.quanta.cli..")
                .check(main);
    }

    @Test
    void lowerModulesShouldNotDependOnTheOnesBuiltOnThem() {
        noClasses().that().resideInAnyPackage("io.quanta.topics..", "io.quanta.schemas..", "io.quanta.embedded..")
                .should().dependOnClassesThat().resideInAnyPackage("io.quanta.core..", "io.quanta.streams..",
                        "io.quanta.node..", "io.quanta.sim..", "io.quanta.audit..", "io.quanta.cli..")
                .check(main);
    }

    @Test
    void packagesOfTheSchedulerCoreShouldFormNoCycle() {
        slices().matching("io.quanta.core.(*)..").should().beFreeOfCycles().check(main);
    }

    @Test
    void packagesOfTheStreamsAppShouldFormNoCycle() {
        slices().matching("io.quanta.streams.(*)..").should().beFreeOfCycles().check(main);
    }

    @Test
    void packagesOfTheNodeConnectorShouldFormNoCycle() {
        slices().matching("io.quanta.node.(*)..").should().beFreeOfCycles().check(main);
    }
}
