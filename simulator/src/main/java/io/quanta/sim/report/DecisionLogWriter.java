package io.quanta.sim.report;

import io.quanta.schemas.SchedulingDecision;
import io.quanta.topics.serde.AvroTrust;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.io.JsonEncoder;
import org.apache.avro.specific.SpecificDatumWriter;

/**
 * A simulated run's decision log: every {@code SchedulingDecision} the scheduler wrote, in Avro's JSON encoding, one
 * record per line ({@code avro-tools fromjson} reads it back with the schema). The records are those the cell writes
 * to {@code quanta.scheduler.decisions}, so a simulated run is audited the way a cell is: each decision's type, job,
 * rule and reason.
 */
public final class DecisionLogWriter implements Consumer<SchedulingDecision>, AutoCloseable {

    /** The file name beside a run's {@code jobs.csv}. */
    public static final String FILE = "decisions.jsonl";

    private final Path file;
    private final OutputStream out;
    private final JsonEncoder encoder;
    private final SpecificDatumWriter<SchedulingDecision> writer;

    private DecisionLogWriter(Path file, OutputStream out, JsonEncoder encoder) {
        AvroTrust.trustQuantaSchemas(); // the specific writer instantiates the generated class
        this.writer = new SpecificDatumWriter<>(SchedulingDecision.getClassSchema());
        this.file = file;
        this.out = out;
        this.encoder = encoder;
    }

    /** Creates (or replaces) {@code file}. */
    public static DecisionLogWriter open(Path file) {
        try {
            OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
            return new DecisionLogWriter(file, out,
                    EncoderFactory.get().jsonEncoder(SchedulingDecision.getClassSchema(), out));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void accept(SchedulingDecision decision) {
        try {
            writer.write(decision, encoder);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        try (out) {
            encoder.flush();
            out.write('\n');
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
