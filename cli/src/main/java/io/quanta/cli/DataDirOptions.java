package io.quanta.cli;

import io.quanta.cli.local.DataDir;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Where {@code quanta local} keeps its state, and whether a run starts from it and leaves it behind. */
final class DataDirOptions {

    @Option(names = "--data-dir", paramLabel = "DIR",
            description = "Where state is kept between runs (default ~/.quanta/local).")
    Path dataDir;

    @Option(names = "--fresh", description = "Start from an empty data directory (forget the previous run).")
    boolean fresh;

    @Option(names = "--clean", description = "Delete the data directory when stopping.")
    boolean clean;

    @Option(names = "--keep-data", description = "Keep the data directory when stopping (the default).")
    boolean keepData;

    /** The data directory: {@code --data-dir}, else the default one. */
    Path path() {
        return dataDir != null ? dataDir : DataDir.defaultPath();
    }

    /** Whether to delete the directory when stopping; fails on both {@code --clean} and {@code --keep-data}. */
    boolean deleteWhenStopping() {
        if (clean && keepData) {
            throw new IllegalArgumentException("--clean and --keep-data contradict each other: choose one");
        }
        return clean;
    }
}
