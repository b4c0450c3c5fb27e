package io.quanta.streams.store;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Reads the hand-ordered binary state of release 0.1.0 ({@code LegacyStateCodecs}): a format version byte, then
 * length-prefixed UTF-8 strings (null allowed), string lists and maps, nullable boxed numbers. Read-only: state is
 * written in Avro since (StateCodecs); the writer half went with the last writer.
 */
public final class Binary {

    private Binary() {
    }

    /** Reads a value after checking its version byte. */
    public static <T> T read(byte[] data, int version, String what, Reader<T> body) {
        try (In in = new In(new ByteArrayInputStream(data))) {
            int found = in.readUnsignedByte();
            if (found != version) {
                throw new IllegalArgumentException("unknown " + what + " format version " + found);
            }
            return body.read(in);
        } catch (IOException e) {
            throw new IllegalArgumentException("malformed " + what + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads a value of any format version from {@code oldest} to {@code newest}: state written by an older version
     * of the scheduler (a rolling upgrade reads the old changelog) is still read; {@code body} gets the version.
     */
    public static <T> T read(byte[] data, int oldest, int newest, String what, VersionedReader<T> body) {
        try (In in = new In(new ByteArrayInputStream(data))) {
            int found = in.readUnsignedByte();
            if (found < oldest || found > newest) {
                throw new IllegalArgumentException("unknown " + what + " format version " + found + " (this version "
                        + "reads " + oldest + " to " + newest + ")");
            }
            return body.read(found, in);
        } catch (IOException e) {
            throw new IllegalArgumentException("malformed " + what + ": " + e.getMessage(), e);
        }
    }

    /** Reads the fields of a value of a given format version. */
    @FunctionalInterface
    public interface VersionedReader<T> {
        T read(int version, In in) throws IOException;
    }

    /** Reads the fields of a value. */
    @FunctionalInterface
    public interface Reader<T> {
        T read(In in) throws IOException;
    }

    /** A data input with the helpers. */
    public static final class In extends DataInputStream {
        In(ByteArrayInputStream bytes) {
            super(bytes);
        }

        public String readString() throws IOException {
            int n = readInt();
            if (n < 0) {
                return null;
            }
            return new String(readNBytes(n), StandardCharsets.UTF_8);
        }

        public List<String> readStrings() throws IOException {
            int n = readInt();
            List<String> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                out.add(readString());
            }
            return out;
        }

        public SortedMap<String, String> readStringMap() throws IOException {
            int n = readInt();
            SortedMap<String, String> out = new TreeMap<>();
            for (int i = 0; i < n; i++) {
                out.put(readString(), readString());
            }
            return out;
        }

        public Double readNullableDouble() throws IOException {
            return readBoolean() ? readDouble() : null;
        }

        public Long readNullableLong() throws IOException {
            return readBoolean() ? readLong() : null;
        }
    }
}
