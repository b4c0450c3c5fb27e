package io.quanta.tests;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import io.quanta.bench.archfixture.CycleRoot;
import io.quanta.bench.archfixture.leaf.CycleLeaf;
import io.quanta.node.NodeConnector;
import io.quanta.node.archfixture.BrokenNodeTestClass;
import io.quanta.streams.app.SchedulerApp;
import io.quanta.streams.archfixture.BrokenStreamsTestClass;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * The module boundaries of docs/architecture.md, checked on the main bytecode of every module (this module depends on
 * all of them through cli) and, for streams-app and node-connector, on their test bytecode too (their test jars): a
 * change that crosses one fails the build.
 */
class ArchitectureTest {

    /** A Maven test jar (the test classes of another module), which DO_NOT_INCLUDE_TESTS does not recognise. */
    private static final Pattern TEST_JAR = Pattern.compile(".*-tests\\.jar!/.*");

    private static JavaClasses main;
    private static JavaClasses mainAndTests;

    @BeforeAll
    static void importClasses() throws Exception {
        main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.matches(TEST_JAR)).importPackages("io.quanta");
        // every module's test classes on this class path, but not this module's own: end-to-end tests may use all
        String own = ArchitectureTest.class.getProtectionDomain().getCodeSource().getLocation().toURI().toString();
        mainAndTests = new ClassFileImporter().withImportOption(location -> !location.asURI().toString()
                .startsWith(own)).importPackages("io.quanta");
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

    private static final ArchRule STREAMS_APP_STAYS_OUT_OF_THE_NODE = noClasses()
            .that().resideInAPackage("io.quanta.streams..")
            .should().dependOnClassesThat().resideInAnyPackage("io.quanta.node..", "io.quanta.sim..",
                    "io.quanta.audit..", "io.quanta.cli..", "io.quanta.chaos..")
            .because("a test that needs the scheduler and a node connector together belongs in tests/");

    private static final ArchRule NODE_CONNECTOR_KNOWS_NO_SCHEDULER = noClasses()
            .that().resideInAPackage("io.quanta.node..")
            .should().dependOnClassesThat().resideInAnyPackage("io.quanta.core..", "io.quanta.streams..",
                    "io.quanta.sim..", "io.quanta.audit..", "io.quanta.cli..")
            .because("a test that needs the scheduler and a node connector together belongs in tests/");

    @Test
    void streamsAppShouldNotDependOnTheConnectorSimulatorAuditOrCliInMainOrTestCode() {
        STREAMS_APP_STAYS_OUT_OF_THE_NODE.check(mainAndTests);
    }

    @Test
    void nodeConnectorShouldNotDependOnTheSchedulerCoreOrTheSchedulerInMainOrTestCode() {
        NODE_CONNECTOR_KNOWS_NO_SCHEDULER.check(mainAndTests);
    }

    /** The rules above see the test classes: without the test jars they would pass on main code alone. */
    @Test
    void shouldImportTheTestClassesOfStreamsAppAndNodeConnectorButNotThoseOfThisModule() {
        assertThat(mainAndTests.contain("io.quanta.streams.TopologyDescriptionTest"))
                .as("streams-app's test classes imported").isTrue();
        assertThat(mainAndTests.contain("io.quanta.node.command.CommandHandlerTest"))
                .as("node-connector's test classes imported").isTrue();
        assertThat(mainAndTests.contain(BrokenStreamsTestClass.class)).as("this module's own classes").isFalse();
    }

    /** The rules are not vacuous: test helpers that break them (fixtures of this module, not imported above) fail. */
    @Test
    void shouldCatchAStreamsTestClassThatUsesTheConnectorAndANodeTestClassThatUsesTheScheduler() {
        JavaClasses broken = new ClassFileImporter().importClasses(BrokenStreamsTestClass.class,
                BrokenNodeTestClass.class);

        assertThat(STREAMS_APP_STAYS_OUT_OF_THE_NODE.evaluate(broken).getFailureReport().getDetails())
                .anyMatch(d -> d.contains(NodeConnector.class.getName()));
        assertThat(NODE_CONNECTOR_KNOWS_NO_SCHEDULER.evaluate(broken).getFailureReport().getDetails())
                .anyMatch(d -> d.contains("io.quanta.core.")).anyMatch(d -> d.contains(SchedulerApp.class.getName()));
    }

    @Test
    void lowerModulesShouldNotDependOnTheOnesBuiltOnThem() {
        noClasses().that().resideInAnyPackage("io.quanta.topics..", "io.quanta.schemas..", "io.quanta.embedded..")
                .should().dependOnClassesThat().resideInAnyPackage("io.quanta.core..", "io.quanta.streams..",
                        "io.quanta.node..", "io.quanta.sim..", "io.quanta.audit..", "io.quanta.cli..")
                .check(main);
    }

    /**
     * The root package of every module with main code (test-fixtures shares {@code io.quanta.embedded} with embedded
     * and adds {@code io.quanta.testing}; schemas' classes are generated from its Avro schemas).
     */
    private static final List<String> MODULE_ROOTS = List.of("io.quanta.schemas", "io.quanta.topics",
            "io.quanta.embedded", "io.quanta.testing", "io.quanta.core", "io.quanta.streams", "io.quanta.audit",
            "io.quanta.node", "io.quanta.sim", "io.quanta.cli", "io.quanta.chaos", "io.quanta.bench");

    /**
     * Inside a module, its packages are layered: the classes of its root package and those of each package below it
     * (with its own sub-packages) form no cycle.
     */
    @ParameterizedTest
    @FieldSource("MODULE_ROOTS")
    void packagesOfAModuleShouldFormNoCycle(String root) {
        assertThat(main.containPackage(root)).as("classes of %s imported", root).isTrue();
        slices().assignedFrom(packagesBelow(root)).should().beFreeOfCycles().check(main);
    }

    /** The rule is not vacuous: a module whose root package and a package below it use each other is caught. */
    @Test
    void shouldCatchACycleBetweenTheRootPackageOfAModuleAndAPackageBelowIt() {
        JavaClasses cycle = new ClassFileImporter().importPackages(CycleRoot.class.getPackageName());

        assertThat(slices().assignedFrom(packagesBelow(CycleRoot.class.getPackageName())).should().beFreeOfCycles()
                .evaluate(cycle).getFailureReport().getDetails())
                .anyMatch(d -> d.contains(CycleRoot.class.getName()) && d.contains(CycleLeaf.class.getName()));
    }

    /** One slice for the root package, one for each package right below it (with its sub-packages). */
    private static SliceAssignment packagesBelow(String root) {
        return new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
                String name = javaClass.getPackageName();
                if (name.equals(root)) {
                    return SliceIdentifier.of(root);
                }
                if (!name.startsWith(root + ".")) {
                    return SliceIdentifier.ignore();
                }
                String below = name.substring(root.length() + 1);
                int dot = below.indexOf('.');
                return SliceIdentifier.of(root + "." + (dot < 0 ? below : below.substring(0, dot)));
            }

            @Override
            public String getDescription() {
                return "the packages of " + root;
            }
        };
    }
}
