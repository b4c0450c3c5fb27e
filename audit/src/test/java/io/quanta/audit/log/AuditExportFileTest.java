package io.quanta.audit.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quanta.audit.testing.SimulatedLogs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuditExportFileTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2024-05-01T12:00:00Z"), ZoneOffset.UTC);

    @TempDir
    Path dir;

    @Test
    void shouldReadBackEveryRecordWhenAnExportIsWrittenAndRead() {
        CellLog log = SimulatedLogs.shared("tiresias-las", 100);
        Path file = dir.resolve("cell-0.avro");

        AuditExportFile.write(log, file, CLOCK, "1.2.3");
        CellLog read = AuditExportFile.read(file);

        assertThat(read.cellId()).isEqualTo(log.cellId());
        assertThat(read.inboxTopic()).isEqualTo(log.inboxTopic());
        assertThat(read.inbox()).hasSameSizeAs(log.inbox());
        for (int i = 0; i < log.inbox().size(); i++) {
            assertThat(read.inbox().get(i).offset()).isEqualTo(log.inbox().get(i).offset());
            assertThat(read.inbox().get(i).timestampMs()).isEqualTo(log.inbox().get(i).timestampMs());
            assertThat(read.inbox().get(i).input()).isEqualTo(log.inbox().get(i).input());
        }
        assertThat(read.decisions()).isEqualTo(log.decisions());
    }

    @Test
    void shouldKeepUndecodableBytesAndSayWhereTheLogCameFromWhenExported() throws Exception {
        CellLog small = SimulatedLogs.shared("fifo", 60);
        List<InboxRecord> inbox = new ArrayList<>(small.inbox());
        byte[] garbage = "not avro".getBytes(StandardCharsets.UTF_8);
        inbox.add(InboxRecord.undecodable(99_999, 5, "cell-0", garbage));
        CellLog log = new CellLog("cell-0", "inbox-topic", 2, inbox, "decisions-topic", 1, small.decisions());
        Path file = dir.resolve("export.avro");

        AuditExportFile.write(log, file, CLOCK, "1.2.3");

        CellLog read = AuditExportFile.read(file);
        InboxRecord last = read.inbox().get(read.inbox().size() - 1);
        assertThat(last.input()).isNull();
        assertThat(last.undecodable()).isEqualTo(garbage);
        assertThat(read.inboxPartition()).isEqualTo(2);
        assertThat(read.decisionsPartition()).isEqualTo(1);
        try (DataFileReader<GenericRecord> generic = new DataFileReader<>(file.toFile(), new GenericDatumReader<>())) {
            assertThat(generic.getMetaString("quanta.exported.at")).isEqualTo("2024-05-01T12:00:00Z");
            assertThat(generic.getMetaString("quanta.exported.by")).isEqualTo("1.2.3");
            assertThat(generic.getSchema().getField("inbox")).isNotNull();
            long entries = 0;
            for (GenericRecord ignored : generic) {
                entries++;
            }
            assertThat(entries).isEqualTo(inbox.size() + small.decisions().size());
        }
    }

    @Test
    void shouldRefuseAFileThatIsNotAnAuditExport() throws Exception {
        Path file = dir.resolve("other.avro");
        Files.writeString(file, "plain text");

        assertThatThrownBy(() -> AuditExportFile.read(file)).hasMessageContaining("other.avro");
    }
}
