package io.quanta.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code quanta acls print}: the roles' ACLs as a table, without a cluster. */
class AclsCommandTest {

    private static final String NOWHERE = "127.0.0.1:1";
    private final CommandRunner cli = new CommandRunner();

    @Test
    void shouldPrintEachRolesAclsWithoutACluster() {
        int code = cli.run("acls", "print", "--bootstrap", NOWHERE, "--scheduler", "User:scheduler", "--node",
                "User:gpu-01", "--tenant", "User:vision", "--auditor", "User:audit");

        assertThat(code).as(cli.err()).isZero();
        List<String> lines = cli.out().lines().toList();
        assertThat(lines.getFirst()).contains("ROLE", "PRINCIPAL", "OPERATION", "RESOURCE", "PATTERN", "NAME");
        assertThat(lines).anySatisfy(l -> assertThat(l).containsPattern(
                "scheduler +User:scheduler +WRITE +TOPIC +literal +quanta\\.nodes\\.commands$"));
        assertThat(lines).anySatisfy(l -> assertThat(l).containsPattern(
                "node +User:gpu-01 +WRITE +TOPIC +literal +quanta\\.nodes\\.heartbeats$"));
        assertThat(lines).anySatisfy(l -> assertThat(l).containsPattern(
                "tenant +User:vision +WRITE +TOPIC +literal +quanta\\.jobs\\.submissions$"));
        assertThat(lines).anySatisfy(l -> assertThat(l).containsPattern(
                "auditor +User:audit +READ +TOPIC +literal +quanta\\.deadletter$"));
        assertThat(lines).as("only the scheduler writes commands").filteredOn(l -> l.contains("WRITE")
                && l.endsWith(" quanta.nodes.commands")).singleElement().asString().startsWith("scheduler");
    }

    @Test
    void shouldGiveEachTenantOnlyItsOwnSubmissionsTopicWhenTenantsAreAuthenticatedByTopic() {
        int code = cli.run("acls", "print", "--bootstrap", NOWHERE, "--set", "scheduler.tenant.topics=true",
                "--scheduler", "User:scheduler", "--tenant", "vision=User:tenant-vision", "--tenant",
                "User:nlp");

        assertThat(code).as(cli.err()).isZero();
        List<String> tenantWrites = cli.out().lines().filter(l -> l.startsWith("tenant") && l.contains(" WRITE "))
                .toList();
        assertThat(tenantWrites).satisfiesExactlyInAnyOrder(
                l -> assertThat(l).containsPattern("User:tenant-vision .* quanta\\.jobs\\.submissions\\.vision$"),
                l -> assertThat(l).containsPattern("User:nlp .* quanta\\.jobs\\.submissions\\.nlp$"));
        assertThat(cli.out()).containsPattern("scheduler +User:scheduler +READ +TOPIC +prefixed "
                + "+quanta\\.jobs\\.submissions\\.");
    }

    @Test
    void shouldExitWithUsageCodeWhenNoRoleHasAPrincipal() {
        int code = cli.run("acls", "print", "--bootstrap", NOWHERE);

        assertThat(code).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err()).contains("no principals given");
        assertThat(cli.out()).isEmpty();
    }
}
