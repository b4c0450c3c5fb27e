package io.quanta.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class CommandHelpTest {

    private final CommandRunner cli = new CommandRunner();

    @Test
    void shouldPrintUsageWithExitZeroWhenAnyCommandIsAskedForHelp() {
        List<String> paths = new ArrayList<>();
        collect(QuantaMain.commandLine(), "", paths);

        assertThat(paths).contains("local", "scheduler", "node", "simulate", "submit", "status", "queue", "nodes",
                "watch", "cancel", "topics apply", "config reference", "docs topics");
        for (String path : paths) {
            CommandRunner one = new CommandRunner();
            List<String> args = new ArrayList<>(List.of(path.split(" ")));
            args.add("--help");
            assertThat(one.run(args.toArray(String[]::new))).as("quanta " + path + " --help").isZero();
            assertThat(one.out()).as("usage of quanta " + path).startsWith("Usage: quanta " + path);
        }
    }

    @Test
    void shouldBuildOnlyTheSubcommandThatRunsAndEveryOneOtherwise() {
        CommandLine submit = QuantaMain.commandLine("submit");
        assertThat(submit.getSubcommands()).containsOnlyKeys("submit");
        assertThat(submit.getSubcommands().get("submit").isStopAtPositional()).isTrue();
        assertThat(submit.getSubcommands().get("submit").getExecutionExceptionHandler())
                .isSameAs(submit.getExecutionExceptionHandler());
        assertThat(QuantaMain.commandLine("sbumit").getSubcommands())
                .as("a typo gets every subcommand, for picocli's suggestions").containsKeys("submit", "status", "help");
        assertThat(QuantaMain.commandLine("help").getSubcommands()).containsKeys("submit", "status", "help");
        assertThat(QuantaMain.commandLine("--help").getSubcommands())
                .hasSameSizeAs(QuantaMain.commandLine().getSubcommands());
    }

    private static void collect(CommandLine line, String prefix, List<String> out) {
        for (Map.Entry<String, CommandLine> sub : line.getSubcommands().entrySet()) {
            if (sub.getKey().equals("help")) {
                continue;
            }
            String path = (prefix + " " + sub.getKey()).trim();
            out.add(path);
            collect(sub.getValue(), path, out);
        }
    }

    @Test
    void shouldSayHowToNameClusterWhenNoneIsConfigured(@TempDir Path dir) throws Exception {
        Path empty = Files.writeString(dir.resolve("empty.properties"), "");

        int code = cli.run("status", "-c", empty.toString());

        assertThat(code).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err()).contains("no cluster configured", "bin/quanta local", "--bootstrap", "--registry");
    }

    @Test
    void shouldExitWithUsageCodeWhenOptionIsUnknown() {
        assertThat(cli.run("status", "--no-such-option")).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err()).contains("Unknown option: '--no-such-option'");
    }

    @Test
    void shouldSimulateSmallTraceAndWriteReportWhenSimulateRuns(@TempDir Path dir) throws Exception {
        Path trace = Files.writeString(dir.resolve("t.csv"), """
                job_id,submit_time_s,num_gpus,duration_s,status,user,virtual_cluster
                a,0,2,600,UNKNOWN,,vc
                b,10,4,300,UNKNOWN,,vc
                c,20,2,900,UNKNOWN,,vc
                """);
        Path out = dir.resolve("out");

        int code = cli.run("simulate", "--trace", trace.toString(), "--cluster", "1x1x4", "--policy", "fifo",
                "--out", out.toString(), "--no-progress");

        assertThat(code).as(cli.err()).isZero();
        assertThat(out.resolve("report.html")).isRegularFile();
        assertThat(Files.readAllLines(out.resolve("jobs.csv"))).hasSize(4);
    }

    @Test
    void shouldRefuseUnknownPolicyWithUsageCodeWhenSimulating(@TempDir Path dir) throws Exception {
        Path trace = Files.writeString(dir.resolve("t.csv"), "job_id,submit_time_s,num_gpus,duration_s\na,0,1,60\n");

        int code = cli.run("simulate", "--trace", trace.toString(), "--policy", "no-such-policy", "--out",
                dir.resolve("o").toString());

        assertThat(code).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err()).contains("no-such-policy");
    }
}
