package io.quanta.audit.log;

import io.quanta.schemas.CellInput;
import io.quanta.schemas.SchedulingDecision;
import io.quanta.topics.serde.AvroTrust;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;

/**
 * The self-contained audit export of one cell: one Avro object container file (schema embedded, deflate blocks)
 * holding the cell's inbox records then its decisions, each an {@code io.quanta.audit.AuditEntry} with the
 * original offset and timestamp and the record as the production schema ({@code CellInput} or
 * {@code SchedulingDecision}). File metadata says where it came from ({@code quanta.*} keys). Any Avro tool reads it
 * (e.g. {@code avro-tools tojson}); the audit reads it back with {@link #read}.
 */
public final class AuditExportFile {

    /** Format version written in the {@code quanta.audit.format} metadata key. */
    public static final String FORMAT = "1";
    /** The schema of one entry. */
    public static final Schema ENTRY = SchemaBuilder.record("AuditEntry").namespace("io.quanta.audit")
            .doc("One record of a cell's audit log: an inbox record (inbox or undecodable set) or a decision.")
            .fields()
            .name("kind").type().enumeration("AuditEntryKind").symbols("INBOX", "DECISION").noDefault()
            .name("offset").doc("Offset in the source partition.").type().longType().noDefault()
            .name("timestampMs").doc("Record timestamp, epoch milliseconds.").type().longType().noDefault()
            .name("key").type().nullable().stringType().noDefault()
            .name("inbox").type().optional().type(CellInput.getClassSchema())
            .name("undecodable").doc("Raw value of an inbox record that could not be decoded.").type().optional()
            .bytesType()
            .name("decision").type().optional().type(SchedulingDecision.getClassSchema())
            .endRecord();

    private static final String META_PREFIX = "quanta.";
    private static final byte[] MAGIC = {'O', 'b', 'j', 1};

    private AuditExportFile() {
    }

    /** Writes {@code log} to {@code file} (replaced), stamped with the export time and the exporting version. */
    public static void write(CellLog log, Path file, Clock clock, String softwareVersion) {
        AvroTrust.trustQuantaSchemas();
        try (DataFileWriter<GenericRecord> writer = new DataFileWriter<>(new SpecificDatumWriter<GenericRecord>(ENTRY))) {
            writer.setCodec(CodecFactory.deflateCodec(6));
            meta(writer, "audit.format", FORMAT);
            meta(writer, "cell", log.cellId());
            meta(writer, "inbox.topic", log.inboxTopic());
            meta(writer, "inbox.partition", Integer.toString(log.inboxPartition()));
            meta(writer, "decisions.topic", log.decisionsTopic());
            meta(writer, "decisions.partition", Integer.toString(log.decisionsPartition()));
            meta(writer, "exported.at", clock.instant().toString());
            meta(writer, "exported.by", softwareVersion);
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            writer.create(ENTRY, file.toFile());
            for (InboxRecord r : log.inbox()) {
                writer.append(entry("INBOX", r.offset(), r.timestampMs(), r.key(), r.input(),
                        r.undecodable() == null ? null : ByteBuffer.wrap(r.undecodable()), null));
            }
            for (RecordedDecision d : log.decisions()) {
                writer.append(entry("DECISION", d.offset(), d.timestampMs(), d.decision().getCellId(), null, null,
                        d.decision()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the audit export " + file + ": " + e.getMessage(), e);
        }
    }

    /** Reads an export written by {@link #write}. */
    public static CellLog read(Path file) {
        AvroTrust.trustQuantaSchemas();
        requireAvroContainer(file);
        List<InboxRecord> inbox = new ArrayList<>();
        List<RecordedDecision> decisions = new ArrayList<>();
        try (DataFileReader<GenericRecord> reader = new DataFileReader<>(file.toFile(),
                new SpecificDatumReader<>(ENTRY))) {
            String format = reader.getMetaString(META_PREFIX + "audit.format");
            if (format == null) {
                throw new IllegalArgumentException(file + " is an Avro file but not a Quanta audit export "
                        + "(no quanta.audit.format metadata)");
            }
            if (!FORMAT.equals(format)) {
                throw new IllegalArgumentException(file + " is audit export format " + format + "; this version reads "
                        + "format " + FORMAT);
            }
            for (GenericRecord e : reader) {
                add(e, inbox, decisions);
            }
            return new CellLog(reader.getMetaString(META_PREFIX + "cell"),
                    reader.getMetaString(META_PREFIX + "inbox.topic"),
                    Integer.parseInt(reader.getMetaString(META_PREFIX + "inbox.partition")), inbox,
                    reader.getMetaString(META_PREFIX + "decisions.topic"),
                    Integer.parseInt(reader.getMetaString(META_PREFIX + "decisions.partition")), decisions);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the audit export " + file + ": " + e.getMessage(), e);
        }
    }

    private static void requireAvroContainer(Path file) {
        byte[] head = new byte[MAGIC.length];
        try (InputStream in = Files.newInputStream(file)) {
            if (in.readNBytes(head, 0, head.length) != head.length || !Arrays.equals(head, MAGIC)) {
                throw new IllegalArgumentException(file + " is not an Avro container file, so not a Quanta audit "
                        + "export");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the audit export " + file + ": " + e.getMessage(), e);
        }
    }

    private static void add(GenericRecord e, List<InboxRecord> inbox, List<RecordedDecision> decisions) {
        long offset = (Long) e.get("offset");
        long timestamp = (Long) e.get("timestampMs");
        Object key = e.get("key");
        if ("DECISION".equals(e.get("kind").toString())) {
            decisions.add(new RecordedDecision(offset, timestamp, (SchedulingDecision) e.get("decision")));
        } else if (e.get("inbox") != null) {
            inbox.add(InboxRecord.of(offset, timestamp, key == null ? null : key.toString(),
                    (CellInput) e.get("inbox")));
        } else {
            ByteBuffer raw = (ByteBuffer) e.get("undecodable");
            byte[] bytes = new byte[raw.remaining()];
            raw.get(bytes);
            inbox.add(InboxRecord.undecodable(offset, timestamp, key == null ? null : key.toString(), bytes));
        }
    }

    private static GenericRecord entry(String kind, long offset, long timestamp, String key, CellInput input,
                                       ByteBuffer raw, SchedulingDecision decision) {
        GenericRecord r = new GenericData.Record(ENTRY);
        r.put("kind", new GenericData.EnumSymbol(ENTRY.getField("kind").schema(), kind));
        r.put("offset", offset);
        r.put("timestampMs", timestamp);
        r.put("key", key);
        r.put("inbox", input);
        r.put("undecodable", raw);
        r.put("decision", decision);
        return r;
    }

    private static void meta(DataFileWriter<?> writer, String key, String value) {
        writer.setMeta(META_PREFIX + key, value == null ? "" : value);
    }
}
