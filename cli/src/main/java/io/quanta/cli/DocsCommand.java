package io.quanta.cli;

import io.quanta.cli.docs.TopicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code quanta docs}: prints the generated reference pages: {@code quanta docs topics > docs/topics.md} and
 * {@code quanta docs reference > docs/configuration.md} (the same as {@code quanta config reference}). A test fails
 * when the committed pages differ from what these print.
 */
@Command(name = "docs", mixinStandardHelpOptions = true,
        description = "Print a generated reference page: topics (docs/topics.md), reference (docs/configuration.md).",
        subcommands = {DocsCommand.Topics.class, ConfigCommand.Reference.class})
public final class DocsCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** The topic and record reference. */
    @Command(name = "topics", mixinStandardHelpOptions = true,
            description = "Topics and records, from the catalogue and the Avro schemas (> docs/topics.md).")
    static final class Topics implements Runnable {
        @Spec
        CommandSpec spec;

        @Override
        public void run() {
            spec.commandLine().getOut().print(TopicReference.markdown());
            spec.commandLine().getOut().flush();
        }
    }
}
